// A run directory built by hand for the timeline exports' tests: two MPI ranks of two threads
// each, with profiles and event traces whose every value the tests know. Rank 1's clock is 5 ms
// behind rank 0's (its profile's clock exchange says so), so its events' corrected times are its
// local times plus 5 ms; and it ticks twice a ns (rank 0's once), so that its durations and waits,
// in ticks as the trace stores them, are only right in ns when converted.
//
// In true (rank 0) time, ms from the start of rank 0; each rank's thread 0:
//   10 enter solve (solver.c:42)          thread 1: 11 enter worker (worker.c:7)
//   12 enter step, value 1                            12 user event "phase" starts, text "warm, up"
//   13 rank 0: MPI_Send 1 ms to rank 1, tag 7,        14 "phase" ends
//      800 bytes (app.c:10);                          16 leave worker
//      rank 1: MPI_Recv 2 ms from rank 0, tag 7,
//      800 bytes, 1 ms of it waiting (app.c:20)
//   16 leave step
//   17 user event "checkpoint" (atomic), text: step "1", done
//   18 MPI_Allreduce 1 ms, 8 bytes, on the communicator (0x5eed, 0), sequence 0, rank 0 waiting
//      0.5 ms (app.c:30)
//   20 leave solve
// The messages and the allreduce are on communicator (0x5eed, 0), the profiles' communicator 100.
// Rank 1's thread 0 events come in two blocks: the enters up to MPI_Recv, then the rest.
//
// Each rank's thread 0 was also sampled (`--trace --sample`): its profile's call_paths hold two
// paths, main (0x1000) > 0x2000 in `solve` and main > 0x3000 in `step`, with no module (their names
// are their addresses); its trace holds the samples at true 11 and 11.5 ms (0x2000, in solve), 13 ms
// (0x3000, in step, weight 2: two timer periods) and 14 ms (0x3000), in a sample block of their own.
#pragma once

#include <cstdint>
#include <filesystem>

namespace parperf::test {

inline constexpr double kMsNs = 1e6;
inline constexpr double kRank1BehindNs = 5e6;

// Events each rank's thread 0 and thread 1 record (the trace's whole content).
inline constexpr int kThread0Events = 8;
inline constexpr int kThread1Events = 4;
inline constexpr int kEventsPerRank = kThread0Events + kThread1Events;
// Rank 1's thread 0, first block: enter solve, enter step, MPI_Recv.
inline constexpr int kRank1FirstBlockEvents = 3;

// The samples each rank's thread 0 has in its trace, weights counted, and how many were of 0x3000.
inline constexpr int kSamplesPerRank = 5;
inline constexpr int kStepSamplesPerRank = 3;

// Writes profile.<r>.ppf and trace.<r>.ppt of ranks 0 and 1 into `directory` (created); returns the
// size of trace.1.ppt's first blocks (everything up to its last block), for truncation tests. With
// `troubled_samples`, rank 0's sample block also says its ring lost kLostSamples samples, and holds
// one more sample (at 15 ms) naming a call-path node its profile does not have.
inline constexpr std::uint64_t kLostSamples = 7;
std::uint64_t write_export_test_run(const std::filesystem::path& directory, bool troubled_samples = false);

}  // namespace parperf::test
