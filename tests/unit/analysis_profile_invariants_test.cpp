// The values a profile must have for the characteristics to mean anything (profile_invariants.hpp):
// each invariant broken on its own is named with the record that breaks it, and values that differ
// from their whole only by the clock's rounding pass.
#include <gtest/gtest.h>

#include <string>

#include "analysis/profile_invariants.hpp"
#include "analysis/snapshot_skew.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/profile_values.hpp"

namespace parperf::analysis {
namespace {

using format::Node;
using format::OperationStats;
using format::Profile;
using format::SiteKind;

constexpr std::uint64_t kSecond = 1'000'000'000;
constexpr std::uint64_t k2Pow31 = std::uint64_t{1} << 31;

// One thread living 2 s: the program (2 s) holds "work" (1 s, 10 entries), which holds a barrier
// operation of 0.4 s (0.1 s waiting, 0.2 s at the end).
Profile consistent_profile() {
  Profile p = test::minimal_profile();
  p.sites = {
      parperf::test::make_site(0, 0, 0, "program", ""),
      parperf::test::make_site(1, static_cast<std::uint32_t>(SiteKind::user), 3, "work", "w.c"),
      parperf::test::make_site(2, static_cast<std::uint32_t>(SiteKind::omp_barrier), 4, "barrier", "w.c")};
  format::Thread& t = p.threads[0];
  t.start_ns = 1000;
  t.end_ns = 1000 + 2 * kSecond;
  t.nodes[0].sum_ns = t.nodes[0].min_ns = t.nodes[0].max_ns = 2 * kSecond;
  Node work;
  work.parent = 0;
  work.site = 1;
  work.count = 10;
  work.sum_ns = kSecond;
  work.min_ns = kSecond / 20;
  work.max_ns = kSecond / 5;
  OperationStats barrier;
  barrier.site = 2;
  barrier.count = 10;
  barrier.sum_ns = 4 * kSecond / 10;
  barrier.min_ns = kSecond / 100;
  barrier.max_ns = kSecond / 10;
  barrier.wait_ns = kSecond / 10;
  barrier.sync_ns = 2 * kSecond / 10;
  work.operations.push_back(barrier);
  t.nodes.push_back(work);
  return p;
}

std::string problem(const Profile& p) { return find_impossible_value(p).value_or("(none)"); }

TEST(analysis_profile_invariants, AConsistentProfileHasNone) {
  EXPECT_EQ(problem(consistent_profile()), "(none)");
}

// Real profiles reach their whole to the nanosecond: each duration is rounded on its own.
TEST(analysis_profile_invariants, PartsThatExceedTheirWholeByRoundingPass) {
  Profile p = consistent_profile();
  Node& work = p.threads[0].nodes[1];
  work.sum_ns = p.threads[0].nodes[0].sum_ns + 10;  // 10 entries: 10 ns of rounding
  work.operations[0].sum_ns = work.sum_ns + 5;
  work.operations[0].wait_ns = work.operations[0].sum_ns - work.operations[0].sync_ns + 3;
  EXPECT_EQ(problem(p), "(none)");
}

// The audit's case: one operation's sync 2^31 ns beyond its time printed an efficiency of -9.5.
TEST(analysis_profile_invariants, WaitAndSyncBeyondTheOperationsTime) {
  Profile p = consistent_profile();
  p.threads[0].nodes[1].operations[0].sync_ns += k2Pow31;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"), the operation at site 2 (\"barrier\"): wait 0.1 s + sync "
            "2.347483648 s exceed the operation's time 0.4 s");
}

TEST(analysis_profile_invariants, AnOperationLongerThanItsInterval) {
  Profile p = consistent_profile();
  OperationStats& barrier = p.threads[0].nodes[1].operations[0];
  barrier.sum_ns = barrier.max_ns = kSecond + 20'000;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"), the operation at site 2 (\"barrier\"): its time "
            "1.00002 s exceeds its interval's time 1 s");
}

TEST(analysis_profile_invariants, AChildLongerThanItsParent) {
  Profile p = consistent_profile();
  p.threads[0].nodes[1].sum_ns = 2 * kSecond + k2Pow31;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"): its time 4.147483648 s exceeds its parent's time 2 s");
}

// A team member's context node has no time of its own: its child is held to the nearest ancestor
// that has.
TEST(analysis_profile_invariants, AContextNodeLeavesTheCheckToItsAncestor) {
  Profile p = consistent_profile();
  Node& work = p.threads[0].nodes[1];
  work.set_flag(format::kNodeContext, true);
  work.count = 0;
  work.sum_ns = work.min_ns = work.max_ns = 0;
  work.operations.clear();
  Node region;
  region.parent = 1;
  region.site = 2;
  region.count = 1;
  region.sum_ns = region.min_ns = region.max_ns = kSecond;
  p.threads[0].nodes.push_back(region);
  EXPECT_EQ(problem(p), "(none)");
  p.threads[0].nodes[2].sum_ns = p.threads[0].nodes[2].max_ns = 3 * kSecond;
  EXPECT_EQ(problem(p),
            "thread 0, node 2 at site 2 (\"barrier\"): its time 3 s exceeds its parent's time 2 s");
}

TEST(analysis_profile_invariants, TimesOutsideTheThreadsLifetime) {
  Profile p = consistent_profile();
  p.threads[0].end_ns = p.threads[0].start_ns - 1;
  EXPECT_EQ(problem(p), "thread 0: ends at 0.000000999 s before it starts at 0.000001 s");
  p = consistent_profile();
  p.threads[0].nodes[0].sum_ns = p.threads[0].nodes[0].max_ns = 2 * kSecond + 2 * kSecond / 20;
  EXPECT_EQ(problem(p),
            "thread 0, node 0 at site 0 (\"program\"): its time 2.1 s exceeds the thread's "
            "lifetime 2 s");
  p.threads[0].nodes[0].sum_ns = p.threads[0].nodes[0].max_ns = 2 * kSecond + 2 * kSecond / 500;
  EXPECT_EQ(problem(p), "(none)") << "0.2 %: an injected clock drift, not damage";
}

TEST(analysis_profile_invariants, AnEntryLongerThanAllEntriesTogether) {
  Profile p = consistent_profile();
  p.threads[0].nodes[1].max_ns = p.threads[0].nodes[1].sum_ns + 1;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"): the longest entry 1.000000001 s exceeds the sum "
            "of the 10 entries 1 s");
  p = consistent_profile();
  p.threads[0].nodes[1].operations[0].min_ns = kSecond / 5;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"), the operation at site 2 (\"barrier\"): the "
            "shortest entry 0.2 s exceeds the longest 0.1 s");
}

// The case: parked time longer than the thread lived gave a negative productive time.
TEST(analysis_profile_invariants, ParkedLongerThanTheThreadLived) {
  Profile p = consistent_profile();
  p.threads[0].parked_ns = 2 * kSecond;
  EXPECT_EQ(problem(p), "(none)") << "parked the whole lifetime is possible";
  p.threads[0].parked_ns = 3 * kSecond;
  EXPECT_EQ(problem(p), "thread 0: parked 3 s exceeds the thread's lifetime 2 s");
}

// The case: 9.2e18 entries in a 138 ms interval passed, and `diff --json` printed the count
// as -9223372036854775808. A thread that lived 2 s can make at most 10 entries a nanosecond.
TEST(analysis_profile_invariants, CountsNoLifetimeCouldHold) {
  const std::uint64_t limit = (2 * kSecond + kSlackNs) * kMaxCountsPerNs;
  Profile p = consistent_profile();
  p.threads[0].nodes[1].count = limit;
  EXPECT_EQ(problem(p), "(none)");
  p.threads[0].nodes[1].count = std::uint64_t{1} << 63;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"): 9223372036854775808 entries in a thread that lived 2 s "
            "(at most " +
                std::to_string(limit) + ")");
  p = consistent_profile();
  p.threads[0].nodes[1].operations[0].count = limit + 1;
  EXPECT_EQ(problem(p), "thread 0, node 1 at site 1 (\"work\"), the operation at site 2 (\"barrier\"): " +
                            std::to_string(limit + 1) + " calls in a thread that lived 2 s (at most " +
                            std::to_string(limit) + ")");
  p = consistent_profile();
  p.threads[0].nodes[1].iterations.count = std::uint64_t{1} << 32;
  EXPECT_EQ(problem(p), "(none)") << "2^32 marks fit in 2 s at 10 a nanosecond";
  p.threads[0].nodes[1].iterations.count = std::uint64_t{1} << 40;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"): 1099511627776 iteration marks in a thread that lived "
            "2 s (at most " +
                std::to_string(limit) + ")");
  p = consistent_profile();
  format::EventStats event;
  event.event = 4;
  event.atomics = ~std::uint64_t{0};
  p.threads[0].nodes[1].events.push_back(event);
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"), user event 4: 18446744073709551615 atomic events in "
            "a thread that lived 2 s (at most " +
                std::to_string(limit) + ")");
}

TEST(analysis_profile_invariants, NoCountBeyondWhatADoubleHoldsExactly) {
  Profile p = consistent_profile();
  p.threads[0].end_ns = p.threads[0].start_ns + (std::uint64_t{1} << 62);  // 146 years
  p.threads[0].nodes[0].sum_ns = p.threads[0].nodes[0].max_ns = p.threads[0].nodes[0].min_ns =
      std::uint64_t{1} << 62;
  p.threads[0].nodes[1].count = kMaxCount + 1;
  EXPECT_EQ(problem(p),
            "thread 0, node 1 at site 1 (\"work\"): 9007199254740993 entries in a thread that lived "
            "4611686018.427387904 s (at most 9007199254740992)");
}

// The cases: probe costs whose inner part exceeds the whole, or that are huge, gave
// efficiencies of -39.9 % and -5 505.9 %.
TEST(analysis_profile_invariants, ProbeCostsNoMeasurementCouldGive) {
  Profile p = consistent_profile();
  format::ProbeCostsRecord costs;
  costs.thread = 0;
  costs.entry_ns = 40;
  costs.inside_ns = 15;
  costs.mark_ns = 10;
  p.probe_costs.push_back(costs);
  EXPECT_EQ(problem(p), "(none)") << "real costs: tens of nanoseconds";
  p.probe_costs[0].inside_ns = 41;
  EXPECT_EQ(problem(p),
            "the probe costs of thread 0: the part inside an entry 0.000000041 s exceeds the entry's "
            "cost 0.00000004 s");
  p.probe_costs[0] = costs;
  p.probe_costs[0].entry_ns = p.probe_costs[0].inside_ns = 3 * kSecond;
  EXPECT_EQ(problem(p), "the probe costs of thread 0: an entry's cost 3 s exceeds the thread's lifetime 2 s");
  // 11 entries (the program's and work's 10) at 0.2 s each: 2.2 s in a 2 s thread. The costs are
  // estimates: a thread that only enters and leaves intervals spends its life in probes, and its
  // estimate may exceed the truth by tens of percent.
  p.probe_costs[0] = costs;
  p.probe_costs[0].entry_ns = kSecond / 5;
  EXPECT_EQ(problem(p), "(none)") << "a probe-bound thread's estimate above its lifetime by 10 %";
  // At 1 s each: 11 s in a 2 s thread, more than any estimate could be off.
  p.probe_costs[0].entry_ns = kSecond;
  EXPECT_EQ(problem(p),
            "the probe costs of thread 0: 11 entries at 1 s and 0 marks at 0.00000001 s take 11 s, "
            "more than 4 times the thread's lifetime 2 s");
}

// A thread another thread's write read while it ran (read_running): "work" was read after the program,
// with an entry of 3 s the program's reading did not hold yet (nested in the program's open entry,
// read at 2 s), and its barrier after "work", with 0.2 s more than "work" read.
Profile skewed_snapshot(std::uint32_t read_running) {
  Profile p = consistent_profile();
  format::Thread& t = p.threads[0];
  t.read_running = read_running;
  t.end_ns = t.start_ns + 4 * kSecond;  // written at 4 s: the program's entry was open
  t.nodes[0].count = 0;
  t.nodes[0].sum_ns = t.nodes[0].min_ns = t.nodes[0].max_ns = 0;
  t.nodes[0].set_flag(format::kNodeOpen, true);
  t.nodes[0].open_ns = 2 * kSecond;
  Node& work = t.nodes[1];
  work.count = 1;
  work.sum_ns = work.min_ns = work.max_ns = 3 * kSecond;
  work.operations[0].count = 1;
  work.operations[0].sum_ns = work.operations[0].min_ns = work.operations[0].max_ns = 32 * kSecond / 10;
  return p;
}

TEST(analysis_snapshot_skew, ARunningThreadsParentsAreRaisedToWhatWasNestedInThem) {
  Profile p = skewed_snapshot(1);
  const SnapshotLift lift = lift_snapshot_skew(p.threads[0]);
  EXPECT_EQ(lift.nodes, 2u) << "work to its barrier, the program to work";
  EXPECT_EQ(lift.most_ns, 12 * kSecond / 10) << "the program from 2 s to 3.2 s";
  EXPECT_EQ(p.threads[0].nodes[1].sum_ns, 32 * kSecond / 10) << "work's closed entries";
  EXPECT_EQ(p.threads[0].nodes[0].open_ns, 32 * kSecond / 10) << "the program's open entry";
  EXPECT_EQ(problem(p), "(none)");
}

TEST(analysis_snapshot_skew, AThreadReadAtRestStaysStrict) {
  Profile p = skewed_snapshot(0);
  const SnapshotLift lift = lift_snapshot_skew(p.threads[0]);
  EXPECT_EQ(lift.nodes, 0u);
  EXPECT_NE(problem(p), "(none)") << "read at rest (ended, the writer's own thread, a file before 3.6), a "
                                     "nested interval longer than its parent is damage";
}

TEST(analysis_snapshot_skew, DamageBeyondTheThreadsLifetimeIsStillImpossible) {
  Profile p = skewed_snapshot(1);
  p.threads[0].nodes[1].sum_ns += k2Pow31 * 4;  // 8.6 s more, in a thread that lived 4 s
  lift_snapshot_skew(p.threads[0]);
  EXPECT_NE(problem(p).find("exceeds the thread's lifetime"), std::string::npos) << problem(p);
}

}  // namespace
}  // namespace parperf::analysis
