#include "report/prediction_text.hpp"

#include <cmath>
#include <filesystem>
#include <iterator>

#include <fmt/format.h>

#include "report/interval_kind.hpp"
#include "report/prediction_words.hpp"
#include "report/printable_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::scaling::IntervalPrediction;
using analysis::scaling::LossPrediction;
using analysis::scaling::ScalingFit;
using analysis::scaling::StudyGroup;
using Out = std::back_insert_iterator<std::string>;

std::string interval_title(const IntervalPrediction& interval) {
  const auto& id = interval.identity;
  std::string title = fmt::format("{} {}", kind_text(id.kind), printable(id.name));
  if (!id.file.empty())
    title += fmt::format(" ({}:{})", printable(std::filesystem::path(id.file).filename().string()), id.line);
  return title;
}

void render_measured(Out out, const ScalingFit& fit, const std::string& unit) {
  fmt::format_to(out, "  {:>10}  {:>12}  {:>12}  {:>8}  {}\n", unit, "measured s", "fitted s", "error",
                 "repetitions (min..max)");
  for (const auto& point : fit.series.points) {
    const double fitted = fit.predict(point.processors);
    const double error = std::isfinite(fitted) ? (fitted - point.median()) / point.median() : NAN;
    std::string spread;
    if (point.times.size() > 1)
      spread = fmt::format("{} ({}..{})", point.times.size(), format_seconds(point.min()),
                           format_seconds(point.max()));
    else
      spread = "1";
    fmt::format_to(out, "  {:>10}  {:>12}  {:>12}  {:>8}  {}\n", point.processors,
                   format_seconds(point.median()), std::isfinite(fitted) ? format_seconds(fitted) : "-",
                   std::isfinite(error) ? fmt::format("{:+.1f}%", 100 * error) : "-", spread);
  }
}

void render_models(Out out, const ScalingFit& fit) {
  fmt::format_to(
      out,
      "  models (error: leave-one-out, the mean relative error predicting each count from the others;\n"
      "  within 1 point of the best, the simpler model is chosen)\n");
  for (const ModelLine& line : model_lines(fit))
    fmt::format_to(out, "  {} {:<11} {:<44} error {}\n", line.chosen ? "*" : " ", line.law, line.formula,
                   line.error);
}

void render_predictions(Out out, const ScalingFit& fit, const std::string& unit) {
  fmt::format_to(out, "  {:>10}  {:>12}  {:>25}  {:>8}  {:>10}\n", unit, "predicted s", "band s", "speedup",
                 "efficiency");
  for (const auto& row : fit.predictions) {
    std::string note;
    if (row.unsupported)
      note = "  beyond what the data supports";
    else if (row.beyond_measured)
      note = "  extrapolated";
    fmt::format_to(out, "  {:>10}  {:>12}  {:>25}  {:>8.2f}  {:>10}{}\n", row.processors,
                   format_seconds(row.time),
                   fmt::format("{} .. {}", format_seconds(row.low), format_seconds(row.high)), row.speedup,
                   format_percent(row.efficiency), note);
  }
}

void render_group(Out out, const StudyGroup& group) {
  const ScalingFit& fit = group.program;
  const std::string unit = group.unit.empty() ? "processors" : group.unit;
  fmt::format_to(out, "\n=== The program{}\n", parameters_text(group.parameters));
  fmt::format_to(out, "  {} runs at {}\n", group.runs.size(), counts_text(fit));
  render_measured(out, fit, unit);
  render_models(out, fit);
  if (fit.predictions.empty()) {
    fmt::format_to(out, "  no prediction: {}\n", no_prediction_reason(fit));
  } else {
    render_predictions(out, fit, unit);
    for (const std::string& conclusion : conclusions(fit)) fmt::format_to(out, "  {}\n", conclusion);
  }
  for (const std::string& warning : warning_texts(fit)) fmt::format_to(out, "  warning: {}\n", warning);

  if (!group.losses.empty()) {
    fmt::format_to(out, "\n  --- lost time, each with its own model (processor-seconds) ---\n");
    for (const LossPrediction& loss : group.losses)
      fmt::format_to(out, "  {:<26} {}\n", analysis::scaling::loss_component_name(loss.component),
                     loss_summary(loss.fit));
  }
  if (!group.growing.empty()) {
    fmt::format_to(
        out, "\n  --- intervals, fastest-growing cost first (x: predicted at {} over measured at {:g}) ---\n",
        largest_predicted(fit), fit.series.points.back().processors);
    for (const IntervalPrediction& interval : group.growing)
      fmt::format_to(out, "  {:<44} x{:<7.2f} {:>5} of the program at {}   {}\n", interval_title(interval),
                     interval.growth, format_percent(interval.share_at_max), largest_predicted(fit),
                     interval_summary(interval.fit));
  }
}

}  // namespace

std::string prediction_text(const analysis::scaling::ScalingStudy& study) {
  std::string text = "parperf scalability prediction\n";
  Out out(text);
  for (const std::string& warning : study.warnings) fmt::format_to(out, "warning: {}\n", warning);
  for (const StudyGroup& group : study.groups) render_group(out, group);
  return text;
}

}  // namespace parperf::report
