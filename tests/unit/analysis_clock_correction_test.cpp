// Clock correction (DESIGN.md section 5): a rank's time stamps put on rank 0's clock from the clock
// exchanges of MPI_Init and MPI_Finalize, with a known offset and drift built into the exchanges.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/clock_correction.hpp"
#include "unit/analysis_mpi_test_profiles.hpp"
#include "unit/profile_values.hpp"

namespace parperf::analysis {
namespace {

using format::ClockPhase;
using test::kMs;
using test::kS;
using test::MpiProfile;

// Rank 1's clock is behind rank 0's by 5 ms at its local second 1 and loses 10 µs per second after
// that: rank 0's time of rank 1's local time t is t + 5 ms + 1e-5 · (t − 1 s). Each exchange is
// symmetric (2 ms round trip around the local second 1, then 101), so the method recovers the
// offsets exactly: 5 ms at init, 6 ms at finalize.
std::vector<format::Profile> drifting_pair(bool with_finalize) {
  MpiProfile rank0(0, 2), rank1(1, 2);
  rank0.thread(200 * kS);
  rank1.thread(200 * kS);
  rank1.clock(ClockPhase::init, 999 * kMs, 1001 * kMs);
  rank0.master_clock(ClockPhase::init, 1, 1 * kS + 5 * kMs);
  if (with_finalize) {
    rank1.clock(ClockPhase::finalize, 100'999 * kMs, 101'001 * kMs);
    rank0.master_clock(ClockPhase::finalize, 1, 101 * kS + 6 * kMs);
  }
  return {rank0.profile(), rank1.profile()};
}

TEST(analysis_clock_correction, KnownOffsetAndDriftAreRecoveredAndApplied) {
  const ClockCorrection clocks = correct_clocks(drifting_pair(true));
  EXPECT_TRUE(clocks.warnings.empty());
  const RankClock& c = clocks.of(1);
  ASSERT_TRUE(c.corrected);
  EXPECT_NEAR(*c.offset_init, 5e6, 1e-3) << "offset = master − (send + recv) / 2 = 1.005 s − 1 s";
  EXPECT_NEAR(*c.offset_finalize, 6e6, 1e-3) << "101.006 s − 101 s";
  EXPECT_NEAR(c.drift, 1e-5, 1e-15) << "(6 ms − 5 ms) / (101 s − 1 s)";
  // Rank 0 answered somewhere in each 2 ms round trip: each offset is within 1 ms, the drift within
  // (1 ms + 1 ms) / 100 s.
  EXPECT_NEAR(*c.error_init, 1e6, 1e-3);
  EXPECT_NEAR(*c.error_finalize, 1e6, 1e-3);
  EXPECT_NEAR(c.drift_error, 2e-5, 1e-15);
  // m(t) = t + o_s + drift · (t − s_s): at the exchanges themselves, then between and beyond them.
  EXPECT_NEAR(c.apply(1e9), 1.005e9, 1e-3);
  EXPECT_NEAR(c.apply(101e9), 101.006e9, 1e-3);
  EXPECT_NEAR(c.apply(51e9), 51e9 + 5e6 + 0.5e6, 1e-3) << "half way: 5.5 ms";
  EXPECT_NEAR(c.apply(0), 5e6 - 1e4, 1e-3) << "before the init exchange the line extends back";
  EXPECT_NEAR(clocks.apply(1, 151e9), 151e9 + 6.5e6, 1e-3) << "beyond finalize too";
}

TEST(analysis_clock_correction, OnlyTheInitExchangeGivesAConstantOffset) {
  const ClockCorrection clocks = correct_clocks(drifting_pair(false));
  const RankClock& c = clocks.of(1);
  ASSERT_TRUE(c.corrected);
  EXPECT_NEAR(*c.offset_init, 5e6, 1e-3);
  EXPECT_FALSE(c.offset_finalize.has_value());
  EXPECT_EQ(c.drift, 0.0);
  EXPECT_NEAR(c.apply(101e9), 101.005e9, 1e-3);
  EXPECT_TRUE(clocks.warnings.empty()) << "a run killed before MPI_Finalize still has a good correction";
}

TEST(analysis_clock_correction, RankZeroIsTheReferenceAndStaysAsItIs) {
  const ClockCorrection clocks = correct_clocks(drifting_pair(true));
  const RankClock& c = clocks.of(0);
  EXPECT_FALSE(c.corrected);
  EXPECT_EQ(c.apply(123.0), 123.0);
  ASSERT_EQ(clocks.clocks.size(), 2u) << "one entry per rank with MPI data, rank 0 included";
}

TEST(analysis_clock_correction, ARankWithoutAnExchangeStaysUncorrectedAndIsNamed) {
  std::vector<format::Profile> profiles = drifting_pair(true);
  MpiProfile rank2(2, 3);
  rank2.thread(kS);
  for (auto& p : profiles) p.process.world_size = 3;
  profiles.push_back(rank2.profile());
  const ClockCorrection clocks = correct_clocks(profiles);
  EXPECT_FALSE(clocks.of(2).corrected);
  EXPECT_EQ(clocks.apply(2, 7.0), 7.0) << "identity";
  EXPECT_TRUE(clocks.of(1).corrected) << "the others are not affected";
  ASSERT_EQ(clocks.warnings.size(), 1u);
  EXPECT_EQ(
      clocks.warnings[0],
      "clocks of ranks 2 not corrected: no clock exchange with rank 0 was recorded for them; their time "
      "stamps are compared uncorrected");
}

TEST(analysis_clock_correction, WithoutRankZerosProfileNoRankCanBeCorrected) {
  std::vector<format::Profile> profiles = drifting_pair(true);
  profiles.erase(profiles.begin());  // rank 0 crashed: its half of every exchange is lost
  const ClockCorrection clocks = correct_clocks(profiles);
  EXPECT_FALSE(clocks.of(1).corrected);
  ASSERT_EQ(clocks.warnings.size(), 1u);
  EXPECT_NE(clocks.warnings[0].find("clocks of ranks 1 not corrected: rank 0's profile"), std::string::npos)
      << clocks.warnings[0];
}

TEST(analysis_clock_correction, RunsWithoutMpiHaveNoClocksAndNoWarnings) {
  std::vector<format::Profile> profiles = drifting_pair(true);
  for (auto& p : profiles) {
    p.has_mpi = false;
    p.mpi = {};
  }
  const ClockCorrection clocks = correct_clocks(profiles);
  EXPECT_TRUE(clocks.clocks.empty());
  EXPECT_TRUE(clocks.warnings.empty());
  EXPECT_EQ(clocks.apply(1, 5.0), 5.0);
}

TEST(analysis_clock_correction, TheExchangeWithTheSmallestRoundTripIsUsed) {
  std::vector<format::Profile> profiles = drifting_pair(false);
  // A second, slower init exchange of rank 1 (round trip 10 ms) that would give another offset.
  profiles[1].mpi.clock.insert(
      profiles[1].mpi.clock.begin(),
      parperf::test::make_clock_sync(ClockPhase::init, 1, 995 * kMs, 1005 * kMs, 0, 10 * kMs));
  profiles[1].mpi.clock.push_back(
      parperf::test::make_clock_sync(ClockPhase::init, 1, 2 * kS, 2 * kS + 10 * kMs, 0, 10 * kMs));
  const ClockCorrection clocks = correct_clocks(profiles);
  EXPECT_NEAR(*clocks.of(1).offset_init, 5e6, 1e-3);
}

}  // namespace
}  // namespace parperf::analysis
