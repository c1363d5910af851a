#include "report/locality/locality_ranks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>

#include "format/run_directory.hpp"
#include "report/locality/locality_format.hpp"
#include "report/locality/locality_functions.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_text.hpp"

namespace parperf::report {
namespace {

using Out = std::back_insert_iterator<std::string>;

// One score across the ranks: where it is lowest and highest, and its mean.
struct Spread {
  double min = 0;
  std::int64_t min_rank = 0;
  double max = 0;
  std::int64_t max_rank = 0;
  double mean = 0;
};

// SL or TL of a program or a function.
using Score = double (*)(const locality::LocalityScores&);
double spatial_of(const locality::LocalityScores& s) { return s.spatial; }
double temporal_of(const locality::LocalityScores& s) { return s.temporal; }

// The `score` of each rank's program.
Spread spread(const std::vector<RankLocality>& ranks, Score score) {
  Spread s;
  s.min = s.max = score(ranks.front().result.report.program);
  s.min_rank = s.max_rank = ranks.front().rank;
  double sum = 0;
  for (const RankLocality& r : ranks) {
    const double value = score(r.result.report.program);
    sum += value;
    if (value < s.min) {
      s.min = value;
      s.min_rank = r.rank;
    }
    if (value > s.max) {
      s.max = value;
      s.max_rank = r.rank;
    }
  }
  s.mean = sum / static_cast<double>(ranks.size());
  return s;
}

const RankLocality& rank_named(const std::vector<RankLocality>& ranks, std::int64_t rank) {
  return *std::find_if(ranks.begin(), ranks.end(), [rank](const RankLocality& r) { return r.rank == rank; });
}

// ", mostly in f (SL 0.250)": among the rank's busy functions (each with at least a tenth of its
// word accesses; the busiest one if none is), the one with the lowest `score`, which pulls the rank
// down. Empty when the rank has no function.
std::string weakest_busy_function(const LocalityResult& result, Score score, const char* name) {
  const auto ids = functions_by_accesses(result.report);
  if (ids.empty()) return {};
  const std::uint64_t all = result.report.program.histograms.word_accesses;
  std::uint32_t weakest = ids.front();
  for (const std::uint32_t id : ids) {
    const auto& s = result.report.functions.at(id);
    if (s.histograms.word_accesses * 10 >= all && score(s) < score(result.report.functions.at(weakest)))
      weakest = id;
  }
  return fmt::format(", mostly in {} ({} {})", function_label(result, weakest), name,
                     format_score(score(result.report.functions.at(weakest))));
}

// A difference of scores below this is noise of the measurement, not a rank that behaves apart.
constexpr double kNotableDifference = 0.1;

// One score's sentence when it differs across the ranks; whether there was one.
bool render_difference(Out out, const std::vector<RankLocality>& ranks, const Spread& spread,
                       const char* score_name, const char* what_low_means, const char* abbreviation,
                       Score score) {
  if (spread.max - spread.min < kNotableDifference) return false;
  const LocalityResult& low = rank_named(ranks, spread.min_rank).result;
  fmt::format_to(out, "  - {} differs across the ranks by {}: rank {} {} ({} {}){}.\n", score_name,
                 format_score(spread.max - spread.min), spread.min_rank, what_low_means, abbreviation,
                 format_score(spread.min), weakest_busy_function(low, score, abbreviation));
  return true;
}

void render_reading(Out out, const std::vector<RankLocality>& ranks, const Spread& sl, const Spread& tl) {
  if (ranks.size() < 2) return;
  const bool spatial_differs = render_difference(out, ranks, sl, "Spatial locality",
                                                 "walks memory with the longest strides", "SL", spatial_of);
  const bool temporal_differs =
      render_difference(out, ranks, tl, "Temporal locality", "reuses its data least", "TL", temporal_of);
  if (!spatial_differs && !temporal_differs)
    fmt::format_to(out, "  - The ranks walk memory alike (SL and TL within {} of each other).\n",
                   format_score(kNotableDifference));
}

nlohmann::ordered_json spread_json(const Spread& s) {
  return {
      {"min", s.min}, {"min_rank", s.min_rank}, {"max", s.max}, {"max_rank", s.max_rank}, {"mean", s.mean}};
}

}  // namespace

std::string rank_directory_name(std::int64_t rank) {
  return fmt::format("{}{}", format::kLocalityRankPrefix, rank);
}

std::optional<std::int64_t> rank_of_directory(std::string_view name) {
  const std::string_view prefix = format::kLocalityRankPrefix;
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
  std::int64_t rank = 0;
  const char* end = name.data() + name.size();
  const auto [stop, error] = std::from_chars(name.data() + prefix.size(), end, rank);
  if (error != std::errc() || stop != end || rank < 0) return std::nullopt;
  return rank;
}

std::string locality_ranks_text(const std::vector<RankLocality>& ranks, const std::string& directory) {
  std::string text;
  Out out(text);
  fmt::format_to(out, "memory locality by MPI rank ({} ranks; one rank's detail: parperf report {}/{}R)\n",
                 ranks.size(), directory, format::kLocalityRankPrefix);
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>8}  {:>8}  {:>10}\n", "rank", "SL", "TL", "loads", "stores",
                 "footprint");
  for (const RankLocality& r : ranks) {
    const locality::LocalityScores& p = r.result.report.program;
    fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>8}  {:>8}  {:>10}\n", r.rank, format_score(p.spatial),
                   format_score(p.temporal), format_count(p.histograms.load_accesses),
                   format_count(p.histograms.store_accesses),
                   format_bytes(p.histograms.footprint_words * r.result.report.options.word_bytes));
  }
  const Spread sl = spread(ranks, spatial_of);
  const Spread tl = spread(ranks, temporal_of);
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}   (rank {} / rank {})\n", "min", format_score(sl.min),
                 format_score(tl.min), sl.min_rank, tl.min_rank);
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}   (rank {} / rank {})\n", "max", format_score(sl.max),
                 format_score(tl.max), sl.max_rank, tl.max_rank);
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}\n", "mean", format_score(sl.mean), format_score(tl.mean));
  fmt::format_to(out, "\ninterpretation\n");
  render_reading(out, ranks, sl, tl);
  return text;
}

nlohmann::ordered_json locality_ranks_json(const std::vector<RankLocality>& ranks) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const RankLocality& r : ranks) {
    const locality::LocalityScores& p = r.result.report.program;
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
          {"spatial_locality", spread_json(spread(ranks, spatial_of))},
          {"temporal_locality", spread_json(spread(ranks, temporal_of))},
          {"results", results}};
}

}  // namespace parperf::report
