#include "report/locality/locality_ranks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "format/run_directory.hpp"
#include "report/locality/locality_format.hpp"
#include "report/locality/locality_functions.hpp"
#include "report/locality/locality_json.hpp"

namespace parperf::report {
namespace {

using Out = std::back_insert_iterator<std::string>;
using locality::RankScoreComparison;

// SL or TL of a program or a function.
using Score = double (*)(const format::LocalityScores&);
double spatial_of(const format::LocalityScores& s) { return s.spatial; }
double temporal_of(const format::LocalityScores& s) { return s.temporal; }

const format::RankLocality& rank_named(const std::vector<format::RankLocality>& ranks, std::int64_t rank) {
  return *std::find_if(ranks.begin(), ranks.end(),
                       [rank](const format::RankLocality& r) { return r.rank == rank; });
}

// The rank's extreme, which compare_ranks always names for at least one rank.
std::int64_t rank_of(const std::optional<std::int64_t>& processor) { return processor.value_or(0); }

// One score's sentence when it differs across the ranks; whether there was one. ", mostly in f
// (SL 0.250)" names the busy function that pulls the rank down.
bool render_difference(Out out, const std::vector<format::RankLocality>& ranks, const RankScoreComparison& c,
                       const char* score_name, const char* what_low_means, const char* abbreviation,
                       Score score) {
  if (!c.differs) return false;
  const analysis::Extreme& spread = c.spread;
  const std::int64_t low_rank = rank_of(spread.min_processor);
  std::string weakest;
  if (c.weakest_function) {
    const format::LocalityResult& low = rank_named(ranks, low_rank).result;
    weakest = fmt::format(", mostly in {} ({} {})", function_label(low, *c.weakest_function), abbreviation,
                          format_score(score(low.report.functions.at(*c.weakest_function))));
  }
  fmt::format_to(out, "  - {} differs across the ranks by {}: rank {} {} ({} {}){}.\n", score_name,
                 format_score(spread.max - spread.min), low_rank, what_low_means, abbreviation,
                 format_score(spread.min), weakest);
  return true;
}

void render_reading(Out out, const std::vector<format::RankLocality>& ranks,
                    const locality::RankComparison& comparison) {
  if (ranks.size() < 2) return;
  const bool spatial_differs = render_difference(out, ranks, comparison.spatial, "Spatial locality",
                                                 "walks memory with the longest strides", "SL", spatial_of);
  const bool temporal_differs = render_difference(out, ranks, comparison.temporal, "Temporal locality",
                                                  "reuses its data least", "TL", temporal_of);
  if (!spatial_differs && !temporal_differs)
    fmt::format_to(out, "  - The ranks walk memory alike (SL and TL within {} of each other).\n",
                   format_score(locality::kNotableRankDifference));
}

nlohmann::ordered_json spread_json(const analysis::Extreme& s) {
  return {{"min", s.min},
          {"min_rank", rank_of(s.min_processor)},
          {"max", s.max},
          {"max_rank", rank_of(s.max_processor)},
          {"mean", s.mean}};
}

}  // namespace

std::string locality_ranks_text(const std::vector<format::RankLocality>& ranks,
                                const locality::RankComparison& comparison, const std::string& directory) {
  std::string text;
  Out out(text);
  fmt::format_to(out, "memory locality by MPI rank ({} ranks; one rank's detail: parperf report {}/{}R)\n",
                 ranks.size(), directory, format::kLocalityRankPrefix);
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>8}  {:>8}  {:>10}\n", "rank", "SL", "TL", "loads", "stores",
                 "footprint");
  for (const format::RankLocality& r : ranks) {
    const format::LocalityScores& p = r.result.report.program;
    fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>8}  {:>8}  {:>10}\n", r.rank, format_score(p.spatial),
                   format_score(p.temporal), format_count(p.histograms.load_accesses),
                   format_count(p.histograms.store_accesses),
                   format_bytes(p.histograms.footprint_words * r.result.report.options.word_bytes));
  }
  const analysis::Extreme& sl = comparison.spatial.spread;
  const analysis::Extreme& tl = comparison.temporal.spread;
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}   (rank {} / rank {})\n", "min", format_score(sl.min),
                 format_score(tl.min), rank_of(sl.min_processor), rank_of(tl.min_processor));
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}   (rank {} / rank {})\n", "max", format_score(sl.max),
                 format_score(tl.max), rank_of(sl.max_processor), rank_of(tl.max_processor));
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}\n", "mean", format_score(sl.mean), format_score(tl.mean));
  fmt::format_to(out, "\ninterpretation\n");
  render_reading(out, ranks, comparison);
  return text;
}

nlohmann::ordered_json locality_ranks_json(const std::vector<format::RankLocality>& ranks,
                                           const locality::RankComparison& comparison) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const format::RankLocality& r : ranks) {
    const format::LocalityScores& p = r.result.report.program;
    rows.push_back({{"rank", r.rank},
                    {"spatial_locality", p.spatial},
                    {"temporal_locality", p.temporal},
                    {"loads", p.histograms.load_accesses},
                    {"stores", p.histograms.store_accesses},
                    {"footprint_words", p.histograms.footprint_words},
                    {"word_accesses", p.histograms.word_accesses}});
    results.push_back({{"rank", r.rank}, {"locality", locality_json(r.result)}});
  }
  return {{"ranks", rows},
          {"spatial_locality", spread_json(comparison.spatial.spread)},
          {"temporal_locality", spread_json(comparison.temporal.spread)},
          {"results", results}};
}

}  // namespace parperf::report
