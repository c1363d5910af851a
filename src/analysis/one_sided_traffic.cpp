#include "analysis/one_sided_traffic.hpp"

#include <algorithm>
#include <tuple>

namespace parperf::analysis {

OneSidedTraffic one_sided_traffic(const std::vector<format::Profile>& profiles) {
  OneSidedTraffic traffic;
  for (const format::Profile& profile : profiles) {
    if (!profile.has_shmem) continue;
    traffic.processes = std::max(traffic.processes, profile.shmem.pe_count);
    if (profile.shmem.traffic_lost) traffic.lost_origins.push_back(profile.shmem.pe);
    for (const format::ShmemTrafficRecord& row : profile.shmem.traffic)
      traffic.cells.push_back({profile.shmem.pe, row.target, row.operation, row.calls, row.bytes});
  }
  std::sort(traffic.cells.begin(), traffic.cells.end(), [](const TrafficCell& a, const TrafficCell& b) {
    return std::tuple(a.origin, a.target, a.operation) < std::tuple(b.origin, b.target, b.operation);
  });
  std::sort(traffic.lost_origins.begin(), traffic.lost_origins.end());
  return traffic;
}

const char* operation_key(format::OneSidedOperation operation) {
  switch (operation) {
    case format::OneSidedOperation::put:
      return "put";
    case format::OneSidedOperation::get:
      return "get";
    case format::OneSidedOperation::atomic:
      return "atomic";
  }
  return "unknown";
}

}  // namespace parperf::analysis
