// The one-sided traffic matrix of a run: which process read and wrote whose memory (puts, gets,
// atomics), in calls and bytes over the whole run, from each profile's own row (the OpenSHMEM
// collector's `shmem` section). A pure function of the profiles.
#pragma once

#include <cstdint>
#include <vector>

#include "format/profile.hpp"

namespace parperf::analysis {

struct TrafficCell {
  std::int64_t origin = 0;  // the process that called
  std::int64_t target = 0;  // the process whose memory it wrote or read
  format::OneSidedOperation operation = format::OneSidedOperation::put;
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

struct OneSidedTraffic {
  std::int64_t processes = 0;      // the matrix is processes × processes; 0 when no profile has a row
  std::vector<TrafficCell> cells;  // by origin, target, operation; only cells with calls
  std::vector<std::int64_t> lost_origins;  // processes whose row their collector could not keep
};

OneSidedTraffic one_sided_traffic(const std::vector<format::Profile>& profiles);

// "put", "get", "atomic"
const char* operation_key(format::OneSidedOperation operation);

}  // namespace parperf::analysis
