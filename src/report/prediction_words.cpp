#include "report/prediction_words.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/time_format.hpp"

namespace parperf::report {

using analysis::scaling::Law;
using analysis::scaling::PerformanceModel;
using analysis::scaling::ScalingFit;

std::string error_text(const std::optional<double>& error) {
  return error ? fmt::format("{:.1f}%", 100 * *error) : "unknown (too few counts to cross-validate)";
}

std::vector<ModelLine> model_lines(const ScalingFit& fit) {
  std::vector<ModelLine> lines;
  if (fit.amdahl) {
    const auto& a = *fit.amdahl;
    lines.push_back(
        {"Amdahl",
         fmt::format("f = {:.3f}, T(1) = {:.3g} s{}", a.serial_fraction, a.t1, a.clamped ? " (clamped)" : ""),
         error_text(a.model.errors.loo), fit.recommended == Law::amdahl});
  }
  if (fit.gustafson) {
    const auto& g = *fit.gustafson;
    lines.push_back({"Gustafson", fmt::format("f = {:.3f}, T(1) = {:.3g} s", g.serial_fraction, g.t1),
                     error_text(g.errors.loo), fit.recommended == Law::gustafson});
  }
  bool first = true;
  for (const PerformanceModel& model : fit.candidates) {
    lines.push_back({"PMNF", "T(p) = " + model.formula(), error_text(model.errors.loo),
                     first && fit.recommended == Law::pmnf});
    first = false;
  }
  return lines;
}

std::string counts_text(const ScalingFit& fit) {
  std::string text;
  const auto& points = fit.series.points;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i > 0) text += i + 1 == points.size() ? " and " : ", ";
    text += fmt::format("{:g}", points[i].processors);
  }
  return text + (points.size() == 1 && points[0].processors == 1 ? " processor" : " processors");
}

std::string parameters_text(const std::map<std::string, std::string>& parameters) {
  if (parameters.empty()) return "";
  std::string text;
  for (const auto& [name, value] : parameters)
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", name, value);
  return " (" + text + ")";
}

std::string no_prediction_reason(const ScalingFit& fit) {
  for (const auto& warning : fit.warnings)
    if (warning.kind == analysis::scaling::ScalingWarningKind::single_count ||
        warning.kind == analysis::scaling::ScalingWarningKind::no_data)
      return warning.text;
  return "no model could be fitted to these times";
}

std::vector<std::string> conclusions(const ScalingFit& fit) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("chosen: {} (leave-one-out error {})",
                              analysis::scaling::law_name(fit.recommended),
                              error_text(fit.recommended_error)));
  if (fit.efficiency_below_threshold_at)
    lines.push_back(fmt::format("parallel efficiency falls below the threshold at {:g} processors",
                                *fit.efficiency_below_threshold_at));
  else
    lines.push_back("parallel efficiency stays above the threshold at every predicted count");
  if (fit.best_processors) {
    const double time = fit.predict(*fit.best_processors);
    lines.push_back(
        fmt::format("shortest time: {} at {:g} processors{}", format_duration(time), *fit.best_processors,
                    fit.still_falling ? " (and still falling: the data supports no larger count)" : ""));
  }
  return lines;
}

std::vector<std::string> warning_texts(const ScalingFit& fit) {
  std::vector<std::string> texts;
  for (const auto& warning : fit.warnings) texts.push_back(warning.text);
  return texts;
}

std::string largest_predicted(const ScalingFit& fit) {
  return fit.predictions.empty() ? "-" : fmt::format("{:g}", fit.predictions.back().processors);
}

namespace {

// How the leading term of a model behaves: what grows or falls with p.
std::string trend_words(const ScalingFit& fit) {
  if (fit.recommended != Law::pmnf || !fit.model)
    return std::string(analysis::scaling::law_name(fit.recommended));
  const PerformanceModel& model = *fit.model;
  if (model.terms.empty()) return "constant";
  // The term that dominates at the largest predicted count.
  const double p = fit.predictions.empty() ? 64 : fit.predictions.back().processors;
  const analysis::scaling::ModelTerm* leading = nullptr;
  double largest = -1;
  for (const auto& term : model.terms) {
    PerformanceModel alone;
    alone.terms = {term};
    const double value = std::abs(alone.predict(p));
    if (value > largest) largest = value, leading = &term;
  }
  const bool grows = leading->p_exponent > 0 || (leading->p_exponent == 0 && leading->log_exponent > 0);
  return fmt::format("{} like {}", grows == (leading->coefficient > 0) ? "grows" : "falls",
                     analysis::scaling::term_factor(*leading));
}

std::string summary(const ScalingFit& fit, const char* unit) {
  if (fit.predictions.empty() || fit.series.points.empty()) return "no model: " + no_prediction_reason(fit);
  const auto& last = fit.series.points.back();
  const auto& end = fit.predictions.back();
  return fmt::format("{}: {:.3g} {} at {:g} -> {:.3g} {} at {:g} (error {})", trend_words(fit), last.median(),
                     unit, last.processors, end.time, unit, end.processors,
                     error_text(fit.recommended_error));
}

}  // namespace

std::string loss_summary(const ScalingFit& fit) { return summary(fit, "proc-s"); }
std::string interval_summary(const ScalingFit& fit) { return summary(fit, "s"); }

}  // namespace parperf::report
