#include "report/locality/locality_text.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/locality/locality_format.hpp"
#include "report/locality/locality_functions.hpp"
#include "report/printable_text.hpp"

namespace parperf::report {
namespace {

using format::LocalityHistograms;
using format::LocalityScores;
using Out = std::back_insert_iterator<std::string>;

// Long C++ names would push the table off the screen; the JSON has them whole.
constexpr std::size_t kNameWidth = 40;
constexpr std::size_t kLocationWidth = 28;
// How many of the busiest functions get an interpretation, and the share below which they do not.
constexpr std::size_t kInterpreted = 5;
constexpr double kInterpretedShare = 0.01;
// Width of a histogram bar at 100%.
constexpr double kBarWidth = 40;

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string clip(std::string_view text, std::size_t width) {
  if (text.size() <= width) return std::string(text);
  return std::string(text.substr(0, width - 3)) + "...";
}

std::string bar(double fraction) {
  return std::string(static_cast<std::size_t>(std::clamp(fraction, 0.0, 1.0) * kBarWidth + 0.5), '#');
}

std::string footprint_text(std::uint64_t words, std::uint32_t word_bytes) {
  return fmt::format("{} words ({})", format_exact_count(words), format_bytes(words * word_bytes));
}

// Beyond this 95 % half width a sampled score is too uncertain to read at two decimals.
constexpr double kWideUncertainty = 0.05;

std::string uncertainty_text(double half_width) {
  if (half_width < 0) return " +- ? (95 %: too few bursts to tell)";
  return fmt::format(" +- {:.3f} (95 %)", half_width);
}

void render_header(Out out, const format::LocalityResult& result) {
  const format::LocalityReport& report = result.report;
  const format::LocalityOptions& o = report.options;
  fmt::format_to(out, "parperf locality report\n");
  fmt::format_to(out, "  source    {}\n", result.source.empty() ? "unknown" : printable(result.source));
  if (!result.command_line.empty()) fmt::format_to(out, "  command   {}\n", printable(result.command_line));
  fmt::format_to(out, "  options   word {} B, stride window {}, strides 1..{}, N = 2^{} = {} words\n",
                 o.word_bytes, o.window, o.max_stride, o.log2_n,
                 power_of_two_label(std::min<std::uint32_t>(o.log2_n, 64)));
  if (o.burst_length > 0) {
    fmt::format_to(out,
                   "  sampling  {} bursts of {} accesses per thread (the first {} of each are warm-up, "
                   "not counted), one every {} accesses on average: counts are estimates "
                   "scaled by 1/{:.6g}\n",
                   report.uncertainty.bursts, o.burst_length, format::burst_warmup(o.burst_length),
                   o.burst_length + o.mean_gap, report.effective_sample_rate);
  } else if (o.sample_rate >= 1 && o.presampled_rate >= 1) {
    fmt::format_to(out, "  sampling  none (exact)\n");
  } else {
    // Two samplings may combine: the capturer's (presampled) and the engine's SHARDS.
    std::string how;
    if (o.presampled_rate < 1)
      how = fmt::format("words sampled by the capturer at rate {:g}", o.presampled_rate);
    if (o.sample_rate < 1)
      how += fmt::format("{}SHARDS rate {:g}", how.empty() ? "" : ", then ", o.sample_rate);
    fmt::format_to(out, "  sampling  {}: counts are estimates scaled by 1/{:.6g}\n", how,
                   report.effective_sample_rate);
  }
  if (result.dropped > 0)
    fmt::format_to(out,
                   "  WARNING   {} accesses could not be recorded by the capturer and are not analysed\n",
                   format_exact_count(result.dropped));
  for (const std::string& warning : result.warnings)
    fmt::format_to(out, "  warning   {}\n", printable(warning));
}

void render_program(Out out, const format::LocalityResult& result) {
  const LocalityScores& p = result.report.program;
  const LocalityHistograms& h = p.histograms;
  fmt::format_to(out, "\nprogram\n");
  const format::BurstUncertainty& u = result.report.uncertainty;
  const bool bursts = result.report.options.burst_length > 0;
  fmt::format_to(out, "  spatial locality (SL)    {}{}\n", format_score(p.spatial),
                 bursts ? uncertainty_text(u.spatial_half_width) : "");
  fmt::format_to(out, "  temporal locality (TL)   {}{}\n", format_score(p.temporal),
                 bursts ? uncertainty_text(u.temporal_half_width) : "");
  fmt::format_to(out, "  loads                    {} ({} words)\n", format_exact_count(h.load_accesses),
                 format_exact_count(h.load_words));
  fmt::format_to(out, "  stores                   {} ({} words)\n", format_exact_count(h.store_accesses),
                 format_exact_count(h.store_words));
  fmt::format_to(out, "  footprint                {}\n",
                 footprint_text(h.footprint_words, result.report.options.word_bytes));
  fmt::format_to(out, "  first accesses (cold)    {} ({} of word accesses)\n", format_exact_count(h.cold),
                 format_share(share(h.cold, h.word_accesses)));
  if (bursts && !(u.spatial_half_width >= 0 && u.spatial_half_width <= kWideUncertainty &&
                  u.temporal_half_width >= 0 && u.temporal_half_width <= kWideUncertainty))
    fmt::format_to(
        out,
        "  note: {} bursts leave the scores uncertain by more than {:g}: run longer, or build with "
        "`parperf cc` without --sampled for the exact scores\n",
        u.bursts, kWideUncertainty);
}

void render_functions(Out out, const format::LocalityResult& result, std::size_t max_functions) {
  const format::LocalityReport& report = result.report;
  if (report.functions.empty()) return;
  std::vector<std::uint32_t> ids = format::functions_by_accesses(report);
  const std::size_t total = ids.size();
  if (ids.size() > max_functions) ids.resize(max_functions);

  std::size_t name_width = 8;
  std::size_t location_width = 8;
  for (const std::uint32_t id : ids) {
    name_width = std::max(name_width, std::min(function_label(result, id).size(), kNameWidth));
    location_width = std::max(location_width, std::min(function_location(result, id).size(), kLocationWidth));
  }
  if (ids.size() < total)
    fmt::format_to(out, "\nfunctions by word accesses ({} of {}; the JSON has all)\n", ids.size(), total);
  else
    fmt::format_to(out, "\nfunctions by word accesses\n");
  fmt::format_to(out, "  {:<{}}  {:<{}}  {:>5}  {:>5}  {:>7}  {:>7}  {:>9}  {:>6}\n", "function", name_width,
                 "location", location_width, "SL", "TL", "loads", "stores", "footprint", "share");
  const std::uint64_t all_words = report.program.histograms.word_accesses;
  for (const std::uint32_t id : ids) {
    const LocalityScores& s = report.functions.at(id);
    const LocalityHistograms& h = s.histograms;
    const std::string location = function_location(result, id);
    fmt::format_to(out, "  {:<{}}  {:<{}}  {:>5}  {:>5}  {:>7}  {:>7}  {:>9}  {:>6}\n",
                   clip(function_label(result, id), name_width), name_width,
                   location.empty() ? "?" : clip(location, location_width), location_width,
                   format_score(s.spatial), format_score(s.temporal), format_count(h.load_accesses),
                   format_count(h.store_accesses),
                   format_bytes(h.footprint_words * report.options.word_bytes),
                   format_share(share(h.word_accesses, all_words)));
  }
}

void render_threads(Out out, const format::LocalityResult& result) {
  const format::LocalityReport& report = result.report;
  if (report.threads.size() < 2) return;  // one thread is the program
  fmt::format_to(out, "\nthreads\n");
  fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>7}  {:>7}  {:>9}  {:>6}\n", "thread", "SL", "TL", "loads",
                 "stores", "footprint", "share");
  for (const auto& [thread, s] : report.threads) {
    const LocalityHistograms& h = s.histograms;
    fmt::format_to(out, "  {:>6}  {:>5}  {:>5}  {:>7}  {:>7}  {:>9}  {:>6}\n", thread,
                   format_score(s.spatial), format_score(s.temporal), format_count(h.load_accesses),
                   format_count(h.store_accesses),
                   format_bytes(h.footprint_words * report.options.word_bytes),
                   format_share(share(h.word_accesses, report.program.histograms.word_accesses)));
  }
}

void histogram_row(Out out, std::string_view label, std::uint64_t count, std::uint64_t whole) {
  const double fraction = share(count, whole);
  fmt::format_to(out, "  {:<14} {:>6}  {}\n", label, format_share(fraction), bar(fraction));
}

// Strides 1..8 one by one (what SL weighs most) and the rest together: the JSON has every stride.
void render_strides(Out out, const LocalityHistograms& h) {
  if (h.strides.size() < 2) return;
  const std::size_t max_stride = h.strides.size() - 2;
  const std::size_t shown = std::min<std::size_t>(max_stride, 8);
  fmt::format_to(out, "\nspatial: strides of the program's word accesses (nearest of the last W words)\n");
  histogram_row(out, "same word", h.strides[0], h.word_accesses);
  for (std::size_t i = 1; i <= shown; ++i)
    histogram_row(out, fmt::format("stride {}", i), h.strides[i], h.word_accesses);
  std::uint64_t longer = 0;
  for (std::size_t i = shown + 1; i < h.strides.size(); ++i) longer += h.strides[i];
  histogram_row(out, "longer or none", longer, h.word_accesses);
}

// The bins from the first to the last with a count (65 bins would be mostly empty lines).
void render_reuse(Out out, const LocalityHistograms& h, std::uint32_t log2_n) {
  fmt::format_to(out,
                 "\ntemporal: reuse distances of the program's word accesses (distinct words in between)\n");
  std::size_t first = h.reuse.size();
  std::size_t last = 0;
  for (std::size_t b = 0; b < h.reuse.size(); ++b) {
    if (h.reuse[b] == 0) continue;
    first = std::min(first, b);
    last = b;
  }
  for (std::size_t b = first; b <= last && first < h.reuse.size(); ++b)
    histogram_row(out, reuse_bin_label(b), h.reuse[b], h.word_accesses);
  histogram_row(out, "cold (first)", h.cold, h.word_accesses);
  if (first < h.reuse.size() && last > log2_n)
    fmt::format_to(out, "  (distances beyond N = {} count as no reuse in TL)\n",
                   power_of_two_label(std::min<std::uint32_t>(log2_n, 64)));
}

// What the scores say, in words; the thresholds are those of locality_text.hpp.
std::vector<std::string> interpretation(const LocalityScores& s) {
  const LocalityHistograms& h = s.histograms;
  const bool good_spatial = s.spatial >= kGoodSpatial;
  const bool good_temporal = s.temporal >= kGoodTemporal;
  if (good_spatial && good_temporal)
    return {"good locality: accesses mostly touch a neighbour of a recent word and words are reused soon"};
  std::vector<std::string> lines;
  // Re-touching a word of the window is not a stride, so a loop over a handful of words scores a low
  // SL; calling that poor spatial locality would send the reader after the wrong problem.
  const double same_word = h.strides.empty() ? 0 : share(h.strides[0], h.word_accesses);
  if (s.spatial < kPoorSpatial && same_word >= 0.5)
    lines.emplace_back(fmt::format(
        "low SL because most accesses ({}) re-touch one of the last W words, which SL does not count as a "
        "stride: that is reuse (see TL) rather than poor spatial locality",
        format_share(same_word)));
  else if (s.spatial < kPoorSpatial)
    lines.emplace_back(
        "poor spatial locality: accesses rarely touch a neighbour of a recent word (strided or random "
        "access); "
        "consider changing the loop order or the data layout");
  else if (!good_spatial)
    lines.emplace_back(
        "moderate spatial locality: part of the accesses are unit-stride, the others strided or scattered");
  else
    lines.emplace_back("good spatial locality: most accesses touch a neighbour of a recent word");
  if (s.temporal < kPoorTemporal) {
    if (share(h.cold, h.word_accesses) > 0.5)
      lines.emplace_back(
          "poor temporal reuse: most words are touched only once; reordering cannot help those, only using "
          "the data more while it is in cache can (e.g. fusing loops over the same data)");
    else
      lines.emplace_back(
          "poor temporal reuse: words come back only after many other words were touched; consider blocking "
          "(tiling) the loops so that data is reused while it is still in cache");
  } else if (!good_temporal) {
    lines.emplace_back("moderate temporal reuse: words come back, but often after many other distinct words");
  } else {
    lines.emplace_back("good temporal reuse: most words are touched again soon");
  }
  return lines;
}

void render_interpretation(Out out, const format::LocalityResult& result, std::size_t max_functions) {
  const format::LocalityReport& report = result.report;
  const std::uint64_t all_words = report.program.histograms.word_accesses;
  if (all_words == 0) return;
  fmt::format_to(out, "\ninterpretation\n");
  const std::vector<std::uint32_t> ids = format::functions_by_accesses(report);
  std::size_t shown = 0;
  for (const std::uint32_t id : ids) {
    const LocalityScores& s = report.functions.at(id);
    const double fraction = share(s.histograms.word_accesses, all_words);
    // The busiest function always; the next ones while they matter.
    if (shown == std::min(kInterpreted, max_functions) || (shown > 0 && fraction < kInterpretedShare)) break;
    if (s.histograms.word_accesses == 0) break;
    const std::string location = function_location(result, id);
    fmt::format_to(out, "  {}{}: SL {}, TL {}, {} of word accesses\n", function_label(result, id),
                   location.empty() ? "" : fmt::format(" ({})", location), format_score(s.spatial),
                   format_score(s.temporal), format_share(fraction));
    for (const std::string& line : interpretation(s)) fmt::format_to(out, "    {}\n", line);
    ++shown;
  }
  if (shown == 0) {
    fmt::format_to(out, "  program: SL {}, TL {}\n", format_score(report.program.spatial),
                   format_score(report.program.temporal));
    for (const std::string& line : interpretation(report.program)) fmt::format_to(out, "    {}\n", line);
  }
}

}  // namespace

std::string locality_text(const format::LocalityResult& result, std::size_t max_functions) {
  std::string text;
  const Out out(text);
  render_header(out, result);
  render_program(out, result);
  const LocalityHistograms& h = result.report.program.histograms;
  if (h.word_accesses == 0) {
    fmt::format_to(out, "\nno memory access was analysed\n");
    return text;
  }
  render_functions(out, result, max_functions);
  render_threads(out, result);
  render_strides(out, h);
  render_reuse(out, h, result.report.options.log2_n);
  render_interpretation(out, result, max_functions);
  return text;
}

}  // namespace parperf::report
