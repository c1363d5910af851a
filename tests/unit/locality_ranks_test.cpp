// The comparison of an MPI job's ranks (analysis/locality/locality_ranks.hpp, rendered by
// report/locality/locality_ranks.hpp) on results made by hand: which rank has the minimum and
// maximum, the mean, and when the reading names a rank.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/locality/locality_ranks.hpp"

namespace parperf::report {
namespace {

using format::rank_directory_name;
using format::rank_of_directory;
using format::RankLocality;

nlohmann::ordered_json locality_ranks_json(const std::vector<RankLocality>& ranks) {
  return report::locality_ranks_json(ranks, locality::compare_ranks(ranks));
}

std::string locality_ranks_text(const std::vector<RankLocality>& ranks, const std::string& directory) {
  return report::locality_ranks_text(ranks, locality::compare_ranks(ranks), directory);
}

// A rank whose program and one function "kernel" (all of its accesses) score `sl` and `tl`.
RankLocality rank_scoring(std::int64_t rank, double sl, double tl) {
  RankLocality r;
  r.rank = rank;
  format::LocalityScores scores;
  scores.spatial = sl;
  scores.temporal = tl;
  scores.histograms.load_accesses = 1000;
  scores.histograms.word_accesses = 1000;
  scores.histograms.footprint_words = 100;
  r.result.report.program = scores;
  r.result.report.functions[7] = scores;
  r.result.functions[7].name = "kernel";
  return r;
}

TEST(LocalityRanks, RankDirectoryNamesRoundTripAndNothingElseParses) {
  EXPECT_EQ(rank_directory_name(12), "locality-rank-12");
  EXPECT_EQ(rank_of_directory(rank_directory_name(0)), 0);
  EXPECT_EQ(rank_of_directory(rank_directory_name(12)), 12);
  for (const char* other :
       {"locality-rank-", "locality-rank--1", "locality-rank-1x", "locality.json", "rank-1"})
    EXPECT_FALSE(rank_of_directory(other).has_value()) << other;
}

TEST(LocalityRanks, SpreadNamesTheRanksOfTheMinimumAndMaximum) {
  const std::vector<RankLocality> ranks = {rank_scoring(0, 0.9, 0.30), rank_scoring(1, 0.5, 0.35),
                                           rank_scoring(2, 0.7, 0.10)};
  const auto json = locality_ranks_json(ranks);
  ASSERT_EQ(json["ranks"].size(), 3u);
  EXPECT_EQ(json["spatial_locality"]["min_rank"], 1);
  EXPECT_EQ(json["spatial_locality"]["max_rank"], 0);
  EXPECT_NEAR(json["spatial_locality"]["mean"].get<double>(), 0.7, 1e-12);
  EXPECT_EQ(json["temporal_locality"]["min_rank"], 2);
  EXPECT_EQ(json["temporal_locality"]["max_rank"], 1);
  EXPECT_EQ(json["results"][2]["rank"], 2);
  EXPECT_EQ(json["results"][2]["locality"]["functions"][0]["function"], "kernel");

  const std::string text = locality_ranks_text(ranks, "run");
  EXPECT_NE(text.find("Spatial locality differs across the ranks by 0.400: rank 1"), std::string::npos)
      << text;
  EXPECT_NE(text.find("mostly in kernel (SL 0.500)"), std::string::npos) << text;
  EXPECT_NE(text.find("Temporal locality differs across the ranks by 0.250: rank 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("parperf report run/locality-rank-R"), std::string::npos) << text;
}

TEST(LocalityRanks, RanksThatWalkMemoryAlikeAreSaidToBeAlike) {
  const std::vector<RankLocality> ranks = {rank_scoring(0, 0.80, 0.40), rank_scoring(1, 0.85, 0.45)};
  const std::string text = locality_ranks_text(ranks, "run");
  EXPECT_EQ(text.find("differs"), std::string::npos) << text;
  EXPECT_NE(text.find("The ranks walk memory alike"), std::string::npos) << text;
}

}  // namespace
}  // namespace parperf::report
