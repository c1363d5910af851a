#include "analysis/locality/locality_ranks.hpp"

#include <algorithm>

namespace parperf::locality {
namespace {

using Score = double (*)(const format::LocalityScores&);
double spatial_of(const format::LocalityScores& s) { return s.spatial; }
double temporal_of(const format::LocalityScores& s) { return s.temporal; }

std::optional<std::uint32_t> weakest_busy_function(const format::LocalityResult& result, Score score) {
  const auto ids = format::functions_by_accesses(result.report);
  if (ids.empty()) return std::nullopt;
  const std::uint64_t all = result.report.program.histograms.word_accesses;
  std::uint32_t weakest = ids.front();
  for (const std::uint32_t id : ids) {
    const auto& s = result.report.functions.at(id);
    if (s.histograms.word_accesses * 10 >= all && score(s) < score(result.report.functions.at(weakest)))
      weakest = id;
  }
  return weakest;
}

RankScoreComparison compare_score(const std::vector<format::RankLocality>& ranks, Score score) {
  std::vector<analysis::ProcessorValue> values;
  values.reserve(ranks.size());
  for (const format::RankLocality& r : ranks) values.push_back({r.rank, score(r.result.report.program)});
  RankScoreComparison comparison;
  comparison.spread = analysis::compare_values(std::move(values));
  const analysis::Extreme& spread = comparison.spread;
  comparison.differs = spread.min_processor && !(spread.max - spread.min < kNotableRankDifference);
  if (comparison.differs) {
    const auto low = std::find_if(ranks.begin(), ranks.end(), [&](const format::RankLocality& r) {
      return r.rank == *spread.min_processor;
    });
    comparison.weakest_function = weakest_busy_function(low->result, score);
  }
  return comparison;
}

}  // namespace

RankComparison compare_ranks(const std::vector<format::RankLocality>& ranks) {
  return {compare_score(ranks, spatial_of), compare_score(ranks, temporal_of)};
}

}  // namespace parperf::locality
