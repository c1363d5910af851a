// The thresholds the diagnosis rules share (findings.hpp), each with the reason for its value.
// docs/diagnosis.md lists them rule by rule; change both together.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parperf::analysis {

// Losses below this share of Total time are noise (timer reads, scheduling), not a finding.
inline constexpr double kSignificantLoss = 0.01;

// Work is balanced when the busiest processor's work is at most 10 % above the mean (max/mean of the
// work before a barrier, or of the productive times). Balanced that well, the busiest processor can
// keep the others waiting at most 1 − 1/1.10 ≈ 9 % of the time in aggregate: a larger loss at the
// barrier has another cause, and "unbalanced work" would contradict the number printed beside it.
inline constexpr double kBalancedMaxOverMean = 1.10;

// Threads waiting at an OpenMP barrier spin on the CPU (libomp: for 200 ms before they sleep) and
// working threads compute, so a parallel region whose threads ran throughout shows OS CPU time close
// to its wall-clock time. With more than 10 % of the wall-clock time off the CPU, threads were taken
// off it (preemption by other load, an oversubscribed machine) or blocked.
inline constexpr double kRanThroughoutCpuShare = 0.9;

// The OS CPU time is read at interval boundaries, at most every PARPERF_CPU_SAMPLE_US (100 µs):
// trusted only for entries lasting 2 ms or more on average.
inline constexpr double kMinMeanEntrySeconds = 0.002;

// The slowest rank is named as the one the others wait for at the end only when the ranks' program
// times differ by at least this much: below it the difference is the ranks' finalization and clock
// noise, and "the others wait for it" would name a cause that is not there.
inline constexpr double kRankSpreadWorthNaming = 0.001;

// Start-up (MPI_Init, shmem_init) worth a finding: at least this share of start-up plus Total time.
// Below it start-up is a fixed cost a run amortizes; above it the run is too short for its figures
// to describe the program's steady state, and productive time is not what it seems.
inline constexpr double kStartupWorthSaying = 0.10;
// MPI set-up calls (communicator, group and window creation), productive Sys time, worth a finding.
inline constexpr double kSetupWorthSaying = 0.10;

// An interval named as a main finding for its own loss (interval_loss), when no SRC point or loop
// explains the program's loss: at least this share of the program's Total time. Lower than the
// start-up threshold because it points at code, higher than kSignificantLoss because an interval's
// idle time is also counted in every interval around it, and the few that say most should be named.
inline constexpr double kIntervalWorthSaying = 0.03;

// Sampled causes (sampled_cause.hpp): a function is blamed for a wait only on at least this many
// samples of the late processors in the interval. A share measured on n samples has a standard error
// of at most 0.5/√n: 9 points at 30 samples, so the gap below is nearly three standard errors.
inline constexpr std::uint64_t kMinSamplesToBlame = 30;
// ... and only when it takes at least this much more of the late processors' samples than of the
// waiting ones' (25 points): a function both groups run alike is their common work, not the cause.
inline constexpr double kBlameShareGap = 0.25;
// Where the waiting processors wait (wall-clock samples): a function the late processors spend at
// most this share of their samples in. A function both run is work, even when the waiting ones'
// share of it is larger (their work stretched by preemption, under wall-clock samples); the wait is
// where only they are.
inline constexpr double kLateHardlyRuns = 0.05;
// At most this many functions named per finding: the sentence must stay readable.
inline constexpr std::size_t kMostBlamedFunctions = 2;

}  // namespace parperf::analysis
