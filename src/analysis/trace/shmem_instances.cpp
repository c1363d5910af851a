#include "analysis/trace/shmem_instances.hpp"

#include <algorithm>
#include <tuple>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "format/shmem_active_set.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

std::vector<ShmemInstance> shmem_instances(std::vector<ShmemCall>& calls, std::uint64_t pes) {
  // Stable: an instance's members stay in location order. barrier_all's set (0) sorts first, as an
  // active set's match is positive: their hubs come first, as the graph links them first.
  std::stable_sort(calls.begin(), calls.end(), [](const ShmemCall& a, const ShmemCall& b) {
    return std::tie(a.set, a.call) < std::tie(b.set, b.call);
  });
  std::vector<ShmemInstance> instances;
  std::uint32_t hubs = 0;
  for (std::size_t first = 0; first < calls.size();) {
    std::size_t end = first + 1;
    while (end < calls.size() && calls[end].set == calls[first].set && calls[end].call == calls[first].call)
      ++end;
    ShmemInstance in;
    in.first = first;
    in.count = end - first;
    std::uint64_t members = pes;  // barrier_all: every location that calls OpenSHMEM
    if (format::ShmemActiveSet set;
        calls[first].set != 0 && format::shmem_active_set_of(calls[first].set, set))
      members = static_cast<std::uint64_t>(set.size);
    in.linked = in.count >= 2 && in.count == members;
    if (in.linked && calls[first].set != 0 && is_kind(calls[first].kind, format::SiteKind::shmem_broadcast))
      for (std::size_t i = first; i < end; ++i)
        if (calls[i].rank == calls[first].root) {  // the root the first member recorded
          in.root = i - first;
          break;
        }
    if (in.linked && in.root == ShmemInstance::kNoRoot) {
      in.hub = hubs++;
      for (std::size_t i = first; i < end; ++i)
        if (calls[i].begin != kNoNode) in.hub_time = std::max(in.hub_time, calls[i].begin_time);
    }
    instances.push_back(in);
    first = end;
  }
  return instances;
}

}  // namespace parperf::analysis
