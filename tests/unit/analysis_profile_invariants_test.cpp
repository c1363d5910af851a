// The values a profile must have for the characteristics to mean anything (profile_invariants.hpp):
// each invariant broken on its own is named with the record that breaks it, and values that differ
// from their whole only by the clock's rounding pass.
#include <gtest/gtest.h>

#include <string>

#include "analysis/profile_invariants.hpp"
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

}  // namespace
}  // namespace parperf::analysis
