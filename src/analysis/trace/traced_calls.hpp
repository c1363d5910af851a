// The calls of one rank's event trace that the communication analysis reads (messages.hpp,
// wait_states.hpp), taken out of the trace rank by rank: ranks can then be extracted apart (by the
// ranks of a parallel analysis, each reading some of the trace files) and matched together, with
// the same result as the serial analysis. Plain values only: they travel between processes as bytes.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "analysis/clock_correction.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

// One call of a rank. Times are corrected: ns since rank 0's start on rank 0's clock.
struct CallSide {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  std::uint32_t site = 0;  // the rank's profile site id (ProfileIndex)
  std::uint32_t kind = 0;  // format::SiteKind of the site
  double start_ns = 0;
  double end_ns = 0;
};

// An MPI call on a communicator the rank's profile knows: a message's send or receive, or a
// collective (format::is_mpi_collective_kind(side.kind)).
struct TracedCall {
  CallSide side;
  std::uint64_t members_hash = 0;  // the communicator's identity across ranks
  std::uint32_t ordinal = 0;
  std::uint32_t communicator_size = 0;
  std::int64_t partner = -1;  // world rank: a message's other end, a rooted collective's root
  std::int64_t match = 0;     // a message's tag, a collective's sequence number
  std::uint64_t bytes = 0;
  std::uint8_t nonblocking_collective = 0;  // MPI_Ibarrier, MPI_Ibcast...: the call only starts it
};

// The waiting an OpenMP barrier (`barrier`) or lock operation recorded on its thread.
struct ThreadWait {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  std::uint32_t site = 0;
  double waited_ns = 0;
  std::uint8_t barrier = 0;  // else a lock or critical section
};

static_assert(std::is_trivially_copyable_v<TracedCall> && std::is_trivially_copyable_v<ThreadWait>);

struct RankCalls {
  std::int64_t rank = 0;
  std::vector<TracedCall> calls;  // in the rank's order of corrected time
  std::vector<ThreadWait> openmp_waits;
};

// The calls of one rank's trace, on rank 0's clock.
RankCalls extract_calls(const RankTrace& rank, const ClockCorrection& clocks);

}  // namespace parperf::analysis
