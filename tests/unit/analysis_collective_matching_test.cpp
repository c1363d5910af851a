// Matching collective instances across ranks: by communicator and sequence number, never by position;
// synchronization, time variation and real sync exactly as DESIGN.md section 4 defines them on
// constructed arrivals; sample scaling; incomplete instances left out with a warning.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "analysis/collective_matching.hpp"
#include "unit/analysis_mpi_test_profiles.hpp"
#include "unit/seconds_assertion.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kind;
using test::kMs;
using test::MpiProfile;
using testing_support::seconds_are;

constexpr std::uint64_t kWorld = 0xAAAA;
constexpr std::uint64_t kPair = 0xBBBB;

// The charges of one location, summed over its nodes and sites.
struct Totals {
  double synchronization = 0, time_variation = 0, real_sync = 0;
};
std::map<std::int64_t, Totals> per_rank(const CollectiveMatching& m) {
  std::map<std::int64_t, Totals> totals;
  for (const CollectiveCharge& c : m.charges) {
    Totals& t = totals[c.location.rank];
    t.synchronization += c.synchronization;
    t.time_variation += c.time_variation;
    t.real_sync += c.real_sync;
  }
  return totals;
}

// Four ranks at one barrier: arrivals 1.0, 1.1, 1.3, 1.6 s; departures 1.70, 1.65, 1.70, 1.72 s.
std::vector<format::Profile> four_ranks_at_a_barrier() {
  const std::uint64_t arrive[] = {1000, 1100, 1300, 1600};
  const std::uint64_t leave[] = {1700, 1650, 1700, 1720};
  std::vector<format::Profile> profiles;
  for (std::int64_t r = 0; r < 4; ++r) {
    MpiProfile p(r, 4);
    p.thread(2000 * kMs);
    const std::uint32_t barrier = p.site(kind(SiteKind::mpi_barrier), "MPI_Barrier", "x.c", 40);
    p.op(0, 0, barrier, 1, (leave[r] - arrive[r]) * kMs);
    const std::size_t world = p.communicator(kWorld, 0, 4, r, 1);
    p.instance(world, 0, arrive[r] * kMs, leave[r] * kMs, barrier);
    profiles.push_back(p.profile());
  }
  return profiles;
}

TEST(analysis_collective_matching, SynchronizationTimeVariationAndRealSyncFollowTheirDefinitions) {
  const CollectiveMatching m = match_collectives(four_ranks_at_a_barrier(), ClockCorrection{});
  EXPECT_TRUE(m.warnings.empty());
  auto totals = per_rank(m);
  // synchronization_p = max_q a_q − a_p with max a = 1.6 s
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.6));
  EXPECT_TRUE(seconds_are("synchronization of rank 1", totals[1].synchronization, 0.5));
  EXPECT_TRUE(seconds_are("synchronization of rank 2", totals[2].synchronization, 0.3));
  EXPECT_TRUE(seconds_are("synchronization of rank 3", totals[3].synchronization, 0.0, "the last to arrive"));
  double sum = 0, variation = 0;
  for (auto& [rank, t] : totals) sum += t.synchronization, variation += t.time_variation;
  EXPECT_TRUE(seconds_are("synchronization", sum, 1.4, "Σ_p (1.6 − a_p) = 0.6 + 0.5 + 0.3 + 0"));
  // time_variation_p = max_q l_q − l_p with max l = 1.72 s
  EXPECT_TRUE(seconds_are("time variation", variation, 0.11, "0.02 + 0.07 + 0.02 + 0"));
  EXPECT_TRUE(seconds_are("time variation of rank 1", totals[1].time_variation, 0.07));
  // real_sync_p = min(l_p − a_p, max_q a_q − a_p)
  EXPECT_TRUE(seconds_are("real sync of rank 0", totals[0].real_sync, 0.6, "min(0.7, 0.6)"));
  EXPECT_TRUE(seconds_are("real sync of rank 2", totals[2].real_sync, 0.3, "min(0.4, 0.3)"));
  EXPECT_TRUE(seconds_are("real sync of rank 3", totals[3].real_sync, 0.0, "it waited for nobody"));
  ASSERT_EQ(m.communicators.size(), 1u);
  EXPECT_EQ(m.communicators[0].matched, 1u);
  EXPECT_EQ(m.communicators[0].sampled, 1u);
  EXPECT_EQ(m.communicators[0].collectives, 1u);
  for (const CollectiveCharge& c : m.charges)
    EXPECT_TRUE(seconds_are("arrival spread", c.arrival_spread, 0.6, "1.6 − 1.0"));
}

TEST(analysis_collective_matching, TheShownInstancesCarryTheArrivalsOnRankZerosClock) {
  const CollectiveMatching m = match_collectives(four_ranks_at_a_barrier(), ClockCorrection{});
  ASSERT_EQ(m.communicators.at(0).instances.size(), 1u);
  const MatchedInstance& i = m.communicators[0].instances[0];
  EXPECT_EQ(i.sequence, 0u);
  EXPECT_EQ(i.name, "MPI_Barrier");
  ASSERT_EQ(i.arrivals.size(), 4u);
  EXPECT_EQ(i.arrivals[2].rank, 2);
  EXPECT_TRUE(seconds_are("arrival of rank 2", i.arrivals[2].arrive, 1.3));
  ASSERT_TRUE(i.arrivals[2].leave.has_value());
  EXPECT_TRUE(seconds_are("departure of rank 2", *i.arrivals[2].leave, 1.7));
}

// Three ranks; the world communicator and a communicator of ranks 0 and 1 on which they broadcast
// without blocking (MPI_Ibcast). Rank 0 calls world#0, pair#0, world#1, pair#1; rank 1 calls pair#0,
// world#0, pair#1, world#1, and holds its pair communicator first, each sample listed last-first, its
// communicators under other local ids. Matching by position would pair rank 0's world#0 with rank 1's
// pair#1; by communicator and sequence the synchronization is exactly the one computed here.
std::vector<format::Profile> interleaved_communicators() {
  MpiProfile r0(0, 3), r1(1, 3), r2(2, 3);
  for (MpiProfile* p : {&r0, &r1, &r2}) p->thread(10'000 * kMs);
  const std::uint32_t reduce0 = r0.site(kind(SiteKind::mpi_reduction), "MPI_Allreduce", "a.c", 10);
  const std::uint32_t bcast0 = r0.site(kind(SiteKind::mpi_broadcast), "MPI_Ibcast", "a.c", 20);
  const std::uint32_t bcast1 = r1.site(kind(SiteKind::mpi_broadcast), "MPI_Ibcast", "a.c", 20);
  const std::uint32_t reduce1 = r1.site(kind(SiteKind::mpi_reduction), "MPI_Allreduce", "a.c", 10);
  const std::uint32_t reduce2 = r2.site(kind(SiteKind::mpi_reduction), "MPI_Allreduce", "a.c", 10);
  // Rank 0: world#0 at 1.0 s, pair#0 at 2.0 s, world#1 at 3.0 s, pair#1 at 4.95 s.
  const std::size_t w0 = r0.communicator(kWorld, 0, 3, 0, 2);
  const std::size_t p0 = r0.communicator(kPair, 0, 2, 0, 2);
  r0.instance(w0, 0, 1000 * kMs, 1400 * kMs, reduce0);
  r0.instance(p0, 0, 2000 * kMs, 0, bcast0);
  r0.instance(w0, 1, 3000 * kMs, 4900 * kMs, reduce0);
  r0.instance(p0, 1, 4950 * kMs, 0, bcast0);
  // Rank 1: pair#0 at 0.5 s, world#0 at 1.4 s, pair#1 at 2.5 s, world#1 at 4.8 s.
  const std::size_t p1 = r1.communicator(kPair, 0, 2, 1, 2);
  const std::size_t w1 = r1.communicator(kWorld, 0, 3, 1, 2);
  r1.instance(p1, 1, 2500 * kMs, 0, bcast1);
  r1.instance(p1, 0, 500 * kMs, 0, bcast1);
  r1.instance(w1, 1, 4800 * kMs, 4900 * kMs, reduce1);
  r1.instance(w1, 0, 1400 * kMs, 1400 * kMs, reduce1);
  // Rank 2 is only in the world: world#0 at 1.2 s, world#1 at 4.9 s.
  const std::size_t w2 = r2.communicator(kWorld, 0, 3, 2, 2);
  r2.instance(w2, 0, 1200 * kMs, 1400 * kMs, reduce2);
  r2.instance(w2, 1, 4900 * kMs, 4900 * kMs, reduce2);
  return {r0.profile(), r1.profile(), r2.profile()};
}

TEST(analysis_collective_matching, InstancesMatchByCommunicatorAndSequenceWhateverTheOrderOnEachRank) {
  const CollectiveMatching m = match_collectives(interleaved_communicators(), ClockCorrection{});
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();
  ASSERT_EQ(m.communicators.size(), 2u);
  EXPECT_EQ(m.communicators[0].size, 3u) << "the largest communicator first";
  EXPECT_EQ(m.communicators[0].matched, 2u);
  EXPECT_EQ(m.communicators[1].matched, 2u);
  // world#0: arrivals 1.0, 1.4, 1.2 → 0.4, 0, 0.2; world#1: 3.0, 4.8, 4.9 → 1.9, 0.1, 0
  // pair#0: 2.0, 0.5 → 0, 1.5; pair#1: 4.95, 2.5 → 0, 2.45
  auto totals = per_rank(m);
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.4 + 1.9 + 0 + 0));
  EXPECT_TRUE(seconds_are("synchronization of rank 1", totals[1].synchronization, 0 + 0.1 + 1.5 + 2.45));
  EXPECT_TRUE(seconds_are("synchronization of rank 2", totals[2].synchronization, 0.2 + 0));
  // Per site, too: rank 1's Allreduce carries the world's, its Ibcast the pair's.
  for (const CollectiveCharge& c : m.charges) {
    if (c.location.rank != 1) continue;
    const bool ibcast = c.site == 2;
    EXPECT_TRUE(seconds_are(ibcast ? "rank 1's Ibcast" : "rank 1's Allreduce", c.synchronization,
                            ibcast ? 3.95 : 0.1));
  }
  EXPECT_EQ(m.communicators[0].instances.at(1).name, "MPI_Allreduce");
  EXPECT_EQ(m.communicators[1].instances.at(0).name, "MPI_Ibcast");
}

TEST(analysis_collective_matching, EachSampledInstanceStandsForCollectivesOverSampleSize) {
  // Both ranks made 8 barriers. Rank 0 kept every other one (stride 2: 0, 2, 4, 6), rank 1 every
  // fourth (stride 4: 0, 4): both can be matched on 0 and 4 only, each standing for 8 / 2 = 4 calls.
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(100 * kMs);
  r1.thread(100 * kMs);
  const std::uint32_t b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::uint32_t b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::size_t c0 = r0.communicator(kWorld, 0, 2, 0, 8, 2);
  const std::size_t c1 = r1.communicator(kWorld, 0, 2, 1, 8, 4);
  for (std::uint64_t s : {0, 2, 4, 6}) r0.instance(c0, s, (10 * s + 1) * kMs, (10 * s + 3) * kMs, b0);
  for (std::uint64_t s : {0, 4}) r1.instance(c1, s, (10 * s + 3) * kMs, (10 * s + 3) * kMs, b1);
  const CollectiveMatching m = match_collectives({r0.profile(), r1.profile()}, ClockCorrection{});
  EXPECT_TRUE(m.warnings.empty()) << "instances the other rank's stride never kept are not incomplete";
  EXPECT_EQ(m.communicators.at(0).sampled, 2u);
  EXPECT_EQ(m.communicators.at(0).matched, 2u);
  auto totals = per_rank(m);
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 4 * (0.002 + 0.002),
                          "2 ms early at each of the 2 matched instances, each standing for 4"));
  EXPECT_TRUE(seconds_are("real sync of rank 0", totals[0].real_sync, 4 * 0.004));
}

TEST(analysis_collective_matching, AFullSampleIsExact) {
  // Stride 1 and every instance kept: the scale is 1 and the sums are the plain sums.
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(100 * kMs);
  r1.thread(100 * kMs);
  const std::uint32_t b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::uint32_t b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::size_t c0 = r0.communicator(kWorld, 0, 2, 0, 3);
  const std::size_t c1 = r1.communicator(kWorld, 0, 2, 1, 3);
  for (std::uint64_t s = 0; s < 3; ++s) {
    r0.instance(c0, s, (10 * s + 1) * kMs, (10 * s + 5) * kMs, b0);
    r1.instance(c1, s, (10 * s + 5 - s) * kMs, (10 * s + 5) * kMs, b1);
  }
  auto totals = per_rank(match_collectives({r0.profile(), r1.profile()}, ClockCorrection{}));
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.004 + 0.003 + 0.002));
}

TEST(analysis_collective_matching, InstancesARankNeverReachedAreLeftOutWithAWarning) {
  // Rank 1 crashed after two of the four barriers rank 0 sampled.
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(100 * kMs);
  r1.thread(100 * kMs);
  const std::uint32_t b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::uint32_t b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::size_t c0 = r0.communicator(kWorld, 0, 2, 0, 4);
  const std::size_t c1 = r1.communicator(kWorld, 0, 2, 1, 2);
  for (std::uint64_t s = 0; s < 4; ++s) r0.instance(c0, s, (10 * s + 1) * kMs, (10 * s + 2) * kMs, b0);
  for (std::uint64_t s = 0; s < 2; ++s) r1.instance(c1, s, (10 * s + 2) * kMs, (10 * s + 2) * kMs, b1);
  const CollectiveMatching m = match_collectives({r0.profile(), r1.profile()}, ClockCorrection{});
  EXPECT_EQ(m.communicators.at(0).sampled, 4u);
  EXPECT_EQ(m.communicators.at(0).matched, 2u);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0],
            "the communicator of 2 ranks (ordinal 0): 2 of 4 sampled collectives lack the record of rank 1 "
            "(ended early?) and are left out of synchronization and time variation");
  auto totals = per_rank(m);
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.002,
                          "1 ms early at the two matched barriers; the unmatched ones count for nothing"));
}

TEST(analysis_collective_matching, ACommunicatorWithAMemberWithoutProfileIsNotMatched) {
  std::vector<format::Profile> profiles = four_ranks_at_a_barrier();
  profiles.erase(profiles.begin() + 2);
  const CollectiveMatching m = match_collectives(profiles, ClockCorrection{});
  EXPECT_TRUE(m.charges.empty());
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0],
            "the communicator of 4 ranks (ordinal 0): 3 of its 4 ranks have a profile with it, so its 1 "
            "collectives are not matched (no synchronization or time variation for them)");
}

TEST(analysis_collective_matching, NonBlockingCollectivesHaveSynchronizationButNoDepartures) {
  std::vector<format::Profile> profiles = four_ranks_at_a_barrier();
  profiles[1].mpi.communicators[0].instances[0].leave_ns = 0;  // an MPI_Ibarrier on rank 1
  const CollectiveMatching m = match_collectives(profiles, ClockCorrection{});
  auto totals = per_rank(m);
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.6));
  double variation = 0, real_sync = 0;
  for (auto& [rank, t] : totals) variation += t.time_variation, real_sync += t.real_sync;
  EXPECT_EQ(variation, 0.0) << "a departure is missing: no time variation for the instance";
  EXPECT_EQ(real_sync, 0.0) << "a non-blocking call does not wait in the call";
  EXPECT_FALSE(m.communicators[0].instances[0].arrivals[1].leave.has_value());
}

TEST(analysis_collective_matching, ArrivalsAreComparedOnRankZerosClock) {
  // Rank 1's clock runs 1 s behind rank 0's: uncorrected, it would seem to arrive 1 s early.
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(10'000 * kMs);
  r1.thread(10'000 * kMs);
  r1.clock(format::ClockPhase::init, 100 * kMs, 102 * kMs);
  r0.master_clock(format::ClockPhase::init, 1, 1101 * kMs);
  const std::uint32_t b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::uint32_t b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  r0.instance(r0.communicator(kWorld, 0, 2, 0, 1), 0, 5000 * kMs, 5300 * kMs, b0);
  r1.instance(r1.communicator(kWorld, 0, 2, 1, 1), 0, 4300 * kMs, 4300 * kMs, b1);  // 5.3 s on rank 0's clock
  const std::vector<format::Profile> profiles = {r0.profile(), r1.profile()};
  auto totals = per_rank(match_collectives(profiles, correct_clocks(profiles)));
  EXPECT_TRUE(seconds_are("synchronization of rank 0", totals[0].synchronization, 0.3));
  EXPECT_TRUE(seconds_are("synchronization of rank 1", totals[1].synchronization, 0.0, "it arrived last"));
}

TEST(analysis_collective_matching, AtMostSixteenInstancesAreShownPerCommunicator) {
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(100 * kMs);
  r1.thread(100 * kMs);
  const std::uint32_t b0 = r0.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::uint32_t b1 = r1.site(kind(SiteKind::mpi_barrier), "MPI_Barrier");
  const std::size_t c0 = r0.communicator(kWorld, 0, 2, 0, 20);
  const std::size_t c1 = r1.communicator(kWorld, 0, 2, 1, 20);
  for (std::uint64_t s = 0; s < 20; ++s) {
    r0.instance(c0, s, (s + 1) * kMs, (s + 2) * kMs, b0);
    r1.instance(c1, s, (s + 1) * kMs, (s + 2) * kMs, b1);
  }
  const CollectiveMatching m = match_collectives({r0.profile(), r1.profile()}, ClockCorrection{});
  EXPECT_EQ(m.communicators.at(0).matched, 20u);
  ASSERT_EQ(m.communicators[0].instances.size(), kShownInstances);
  EXPECT_EQ(m.communicators[0].instances.back().sequence, 15u) << "the first ones, by sequence";
}

}  // namespace
}  // namespace parperf::analysis
