#include "report/filter_suggestion.hpp"

#include <iterator>

#include <fmt/format.h>

#include "report/time_format.hpp"

namespace parperf::report {
namespace {

std::string per_call(double seconds) { return seconds > 0 ? format_duration(seconds) : "0 s"; }

// The share of what a function's calls cost measured that is measurement.
double measuring_share(const analysis::FunctionScore& f) {
  const double measured = f.seconds + f.overhead_seconds;
  return measured > 0 ? f.overhead_seconds / measured : 0;
}

std::string evidence(const analysis::FunctionScore& f) {
  std::string text =
      fmt::format("{} call{}, {} a call", f.calls, f.calls == 1 ? "" : "s", per_call(f.seconds_per_call));
  if (!f.file.empty()) fmt::format_to(std::back_inserter(text), ", {}:{}", f.file, f.line);
  return text;
}

}  // namespace

std::string render_filter_suggestion(const analysis::FunctionScoring& scoring, const std::string& run) {
  std::string out;
  auto to = std::back_inserter(out);
  std::size_t proposed = 0;
  for (const auto& f : scoring.functions) proposed += f.exclude ? 1 : 0;
  fmt::format_to(to, "# Function filter proposed by `parperf filter suggest` from {}\n", run);
  fmt::format_to(
      to,
      "# Excluded: functions called at least {} times that take less than {} a call; one measured\n"
      "# call costs about {:.0f} ns. {} of {} functions; together they cost the run about {} of\n"
      "# measurement ({} of the program's {}). Use: parperf cc --instrument=functions --filter FILE\n",
      scoring.options.min_calls, format_duration(scoring.options.max_seconds_per_call), scoring.probe_ns,
      proposed, scoring.functions.size(), format_duration(scoring.excluded_overhead_seconds),
      format_percent(scoring.program_seconds > 0 ? scoring.excluded_overhead_seconds / scoring.program_seconds
                                                 : 0),
      format_duration(scoring.program_seconds));
  for (const auto& f : scoring.functions) {
    if (!f.exclude) continue;
    fmt::format_to(to, "\n# {}: saves ~{} ({} of its measured time is measurement)\nexclude function {}\n",
                   evidence(f), format_duration(f.overhead_seconds), format_percent(measuring_share(f)),
                   f.name);
  }
  if (proposed < scoring.functions.size()) fmt::format_to(to, "\n# Kept (measuring them costs little):\n");
  for (const auto& f : scoring.functions)
    if (!f.exclude)
      fmt::format_to(to, "#   {}: {}, {} in all\n", f.name, evidence(f), format_duration(f.seconds));
  return out;
}

}  // namespace parperf::report
