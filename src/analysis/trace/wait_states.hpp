// Wait states found in the event trace, in the manner of Scalasca: time a rank or thread spent
// blocked because another one was late, with who waited, where, and who made it wait. The profile
// knows how long each call took; only the trace knows when the partner arrived.
//
// Patterns (all times corrected to rank 0's clock; a wait never exceeds the waiting call):
//   late_sender      a blocking receive (Recv, Sendrecv, the Wait of an Irecv) began before the
//                    matching send: waiting = send start − receive start. Caused by the sender.
//   late_receiver    a blocking send (Send, Ssend, Sendrecv) that ended only after the matching
//                    receive was posted waited for it: send start to receive start. Caused by the
//                    receiver. A send that returned before the receive was posted (an eager send)
//                    waited for nothing.
//   wait_at_barrier  MPI_Barrier: each rank waits from its arrival to the last arrival; caused by
//                    the last one.
//   wait_at_nxn      the same for the all-to-all collectives (Allreduce, Allgather, Alltoall, ...).
//   late_broadcast   the non-root ranks of a Bcast/Scatter that arrived before the root wait for it.
//   early_reduce     the root of a Reduce/Gather that arrived before the last other rank waits for it.
//   omp_barrier      OpenMP barriers (explicit, implicit, join): the waiting part the OpenMP
//                    collector recorded for each thread; caused by the member of the team that
//                    arrived last at that barrier instance.
//   omp_lock         OpenMP locks and critical sections: the time a thread waited to acquire them;
//                    caused by the thread that acquired the same lock before it (and held it then).
//   wait_at_fence    MPI_Win_fence that may end an epoch (no MPI_MODE_NOPRECEDE): each rank waits
//                    from its arrival to the last arrival of the window's group; caused by the last.
//   lock_competition an MPI window lock (MPI_Win_lock, _lock_all) or an OpenSHMEM lock (set_lock, a
//                    test_lock that took it) handed on from a previous holder
//                    (window_locks.hpp) waited from its call to that holder's release (the latest
//                    one's, after shared holders); caused by that holder, as Scalasca's RMA Lock
//                    Competition.
//   late_post        an MPI_Win_start (or, when the start returned at once, the epoch's
//                    MPI_Win_complete) linked to its targets' MPI_Win_post (window_epochs.hpp)
//                    waited from its call to the last of those posts; caused by that target, as
//                    Scalasca's RMA Late Post.
//   early_wait       an MPI_Win_wait (or the MPI_Win_test that ended the exposure) waited from its
//                    call to the last of its origins' MPI_Win_complete; caused by that origin, as
//                    Scalasca's RMA Early Wait.
// Non-blocking collectives have no wait state here: the call that starts them does not wait.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

enum class WaitPattern {
  late_sender,
  late_receiver,
  wait_at_barrier,
  wait_at_nxn,
  late_broadcast,
  early_reduce,
  omp_barrier,
  omp_lock,
  wait_at_fence,
  lock_competition,
  late_post,
  early_wait,  // last: the patterns' order is the JSON's and the tallies' exchanged by parts
};
inline constexpr int kWaitPatternCount = 12;

// "late_sender" (JSON) and "Late Sender" (text).
std::string_view pattern_key(WaitPattern pattern);
std::string_view pattern_title(WaitPattern pattern);

// Time lost at one call site, by one waiting rank/thread, or caused by one rank.
struct WaitShare {
  double lost_ns = 0;
  std::uint64_t instances = 0;  // waits with a positive waiting time
};

struct WaitSite : WaitShare {
  std::string name;      // "MPI_Recv"
  std::string location;  // "solver.c:42", or the name when there is no source position
};

struct WaitingLocation : WaitShare {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
};

struct WaitCause : WaitShare {
  std::int64_t rank = 0;
  std::optional<std::uint32_t> thread{};  // OpenMP waits: the thread of `rank` that made others wait
};

struct PatternWaits {
  WaitPattern pattern = WaitPattern::late_sender;
  double lost_ns = 0;
  std::uint64_t instances = 0;
  std::vector<WaitSite> sites;           // most time lost first
  std::vector<WaitingLocation> waiting;  // most time lost first
  std::vector<WaitCause> causes;         // most time caused first
};

struct WaitStates {
  std::vector<PatternWaits> patterns;  // those with time lost, in the order of WaitPattern
};

// Every pattern's wait states. Pure: a function of the traces and their matched communication.
WaitStates find_wait_states(const TraceRun& traces, const Communication& communication);
// The same found by the parts of a run analysed by parts (graph_part.hpp), together: each finds the
// waits of its own ranks, `own` (their traces only), in its communication (part_matching.hpp: what
// touches its ranks, with every member of its instances), and every part gets the run's wait states,
// the whole run's to the bit.
WaitStates find_wait_states(const TraceRun& own, const Communication& communication, PartExchange& exchange);

}  // namespace parperf::analysis
