// What must hold in every profile for the characteristics to mean anything: parts never exceed
// their whole, and times stay within the thread's lifetime. A profile can be damaged while its
// checksums still agree (or be forged): one operation whose sync time was 2^31 ns larger than its
// interval gave an efficiency of -9.5 and a negative productive time. The reader checks the format;
// this checks the values, so that the report refuses what it cannot compute instead of printing it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "format/profile.hpp"

namespace parperf::analysis {

// How much a part may exceed its whole before it is impossible rather than rounding: every duration
// is converted from clock ticks to nanoseconds on its own, each conversion off by up to a nanosecond,
// so a sum of n durations may be off by n ns (real profiles of the scenario tests come within 1 ns of
// their whole, and never above it by more). A thread's lifetime is taken apart from its intervals'
// clock: under an injected clock drift (PARPERF_TEST_CLOCK_SKEW, up to 0.2 %) a root interval
// outlasts its thread by that share, so the lifetime check allows 1 %. The damage this is for is
// far larger (2^31 ns in a second-long run).
inline constexpr std::uint64_t kRoundingNsPerEntry = 2;
inline constexpr std::uint64_t kSlackNs = 1000;
inline constexpr double kRelativeSlack = 1e-5;
inline constexpr double kLifetimeSlack = 1e-2;
// A thread's probe costs are estimates, calibrated when it starts, apart from the program: a thread
// that does nothing but enter and leave intervals spends its whole life in probes, and the estimate
// can then exceed what each entry cost in its tight loop by tens of percent (28 % seen in a flushed
// profile of such a thread, which was refused). The compensation never takes a time below zero
// (probe_compensation.hpp), so an estimate above the truth costs nothing; all the probes together
// are held to this many lifetimes, far below what damage or forgery gives.
inline constexpr double kProbeEstimateFactor = 4;
// How many entries (or calls, marks, event pairs) a thread can make per nanosecond of its lifetime:
// each one reads the clock at least once and takes at least one cycle of a processor clocked below
// 10 GHz. A count beyond that, whatever the rest of the record says, was never measured.
inline constexpr std::uint64_t kMaxCountsPerNs = 10;
// The largest count the reports carry exactly: JSON readers and the analysis's arithmetic hold
// numbers as doubles (2^53), and a 64-bit count above 2^63 would print negative.
inline constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

// The first value of `profile` that breaks an invariant, described with the record that holds it:
// "thread 1, node 3 at site 4 (\"solve\"), the operation at site 9 (\"MPI_Recv\"): wait 0.2 s + sync 2.1 s
// exceed the operation's time 0.5 s". Nothing when all hold. The invariants (exec = sum + open time):
//   - a thread ends after it starts, and its root's exec fits in its lifetime;
//   - an interval's exec fits in its parent's (the nearest one with time of its own: the context
//     nodes of a team member have none);
//   - an entry's maximum is at most the sum of the entries, its minimum at most its maximum;
//   - an operation's time fits in its interval's exec, and its wait plus sync in its time;
//   - the time a thread was parked fits in its lifetime;
//   - every count (entries, calls, iteration marks, user events' starts, ends and atomics) is at most
//     kMaxCountsPerNs per nanosecond of the thread's lifetime, and at most kMaxCount;
//   - a thread's probe costs: the part inside an entry fits in the entry's cost, and the costs of all
//     the thread's entries and marks fit in its lifetime (every probe ran inside it).
std::optional<std::string> find_impossible_value(const format::Profile& profile);

}  // namespace parperf::analysis
