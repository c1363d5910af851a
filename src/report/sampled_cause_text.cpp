#include "report/sampled_cause_text.hpp"

#include <fmt/format.h>

#include "analysis/rank_list.hpp"
#include "report/src_summary.hpp"

namespace parperf::report {
namespace {

std::string percent(double share) { return fmt::format("{:.0f} %", share * 100); }

// Below this share the waiting processors "hardly run" a function; above it the sentence gives both.
constexpr double kHardlyRuns = 0.05;

std::string function_text(const analysis::ComparedFunction& f) {
  if (f.file.empty()) return f.function;
  return fmt::format("{} ({})", f.function, source_text(f.file, f.line));
}

}  // namespace

std::string processors_text(analysis::Unit unit, const std::vector<std::int64_t>& processors) {
  const std::string noun(analysis::unit_name(unit));
  return fmt::format("{}{} {}", noun, processors.size() == 1 ? "" : "s", analysis::rank_list(processors));
}

std::string sampled_cause_text(const analysis::SampledCause& cause) {
  const bool one_late = cause.late.size() == 1, one_waiting = cause.waiting.size() == 1;
  const std::string late = processors_text(cause.unit, cause.late);
  const std::string waiting = processors_text(cause.unit, cause.waiting);
  std::string text = fmt::format("{} spend{} ", late, one_late ? "s" : "");
  // "80 % of its samples in f (a.c:12) and 10 % in g (a.c:20)"
  std::string shares;
  for (std::size_t i = 0; i < cause.functions.size(); ++i) {
    const analysis::ComparedFunction& f = cause.functions[i];
    if (i > 0) shares += " and ";
    shares += percent(f.late_share);
    if (i == 0) shares += fmt::format(" of {} samples", one_late ? "its" : "their");
    shares += " in " + function_text(f);
  }
  text += shares;
  const analysis::ComparedFunction& top = cause.functions.front();
  if (cause.waiting_samples == 0)
    text += fmt::format(", while {} {} no samples (off the CPU as {} waited)", waiting,
                        one_waiting ? "has" : "have", one_waiting ? "it" : "they");
  else if (top.waiting_share < kHardlyRuns)
    text += fmt::format(", which {} hardly run{} ({})", waiting, one_waiting ? "s" : "",
                        percent(top.waiting_share));
  else
    text += fmt::format(", against {} of the samples of {}", percent(top.waiting_share), waiting);
  if (cause.waiting_in)
    text += fmt::format("; {} wait{} in {}, {} of {} samples", waiting, one_waiting ? "s" : "",
                        function_text(*cause.waiting_in), percent(cause.waiting_in->waiting_share),
                        one_waiting ? "its" : "their");
  return text;
}

}  // namespace parperf::report
