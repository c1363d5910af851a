#include "report/prediction_json.hpp"

#include <cmath>

#include "report/interval_kind.hpp"
#include "report/prediction_words.hpp"

namespace parperf::report {
namespace {

using analysis::scaling::ModelErrors;
using analysis::scaling::PerformanceModel;
using analysis::scaling::ScalingFit;
using json = nlohmann::ordered_json;

json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

// A number JSON can hold: NaN and infinities become null.
json finite(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json errors_json(const ModelErrors& errors) {
  return {{"loo_error", optional_number(errors.loo)},
          {"loo_error_max", optional_number(errors.loo_max)},
          {"rss", finite(errors.rss)},
          {"smape", finite(errors.smape)},
          {"adjusted_r2", finite(errors.adjusted_r2)}};
}

json model_json(const PerformanceModel& model) {
  json terms = json::array();
  for (const auto& term : model.terms)
    terms.push_back({{"coefficient", finite(term.coefficient)},
                     {"p_exponent", term.p_exponent},
                     {"log2_exponent", term.log_exponent}});
  json out = {
      {"formula", model.formula()}, {"constant", finite(model.constant)}, {"terms", std::move(terms)}};
  out.update(errors_json(model.errors));
  return out;
}

json fit_json(const ScalingFit& fit) {
  json measured = json::array();
  for (const auto& point : fit.series.points)
    measured.push_back({{"processors", point.processors},
                        {"median", point.median()},
                        {"min", point.min()},
                        {"max", point.max()},
                        {"repetitions", point.times.size()},
                        {"fitted", finite(fit.predict(point.processors))}});
  json out = {{"measured", std::move(measured)}};
  if (fit.amdahl) {
    out["amdahl"] = {{"serial_fraction", fit.amdahl->serial_fraction},
                     {"t1", fit.amdahl->t1},
                     {"clamped", fit.amdahl->clamped}};
    out["amdahl"].update(errors_json(fit.amdahl->model.errors));
  } else {
    out["amdahl"] = nullptr;
  }
  if (fit.gustafson) {
    out["gustafson"] = {{"serial_fraction", fit.gustafson->serial_fraction}, {"t1", fit.gustafson->t1}};
    out["gustafson"].update(errors_json(fit.gustafson->errors));
  } else {
    out["gustafson"] = nullptr;
  }
  out["model"] = fit.model ? model_json(*fit.model) : json(nullptr);
  json candidates = json::array();
  for (const auto& model : fit.candidates) candidates.push_back(model_json(model));
  out["candidates"] = std::move(candidates);
  out["recommended"] = analysis::scaling::law_name(fit.recommended);
  out["recommended_loo_error"] = optional_number(fit.recommended_error);
  out["reference_t1"] = fit.reference_t1;
  out["reference_measured"] = fit.reference_measured;
  json rows = json::array();
  for (const auto& row : fit.predictions)
    rows.push_back({{"processors", row.processors},
                    {"time", finite(row.time)},
                    {"low", finite(row.low)},
                    {"high", finite(row.high)},
                    {"speedup", finite(row.speedup)},
                    {"efficiency", finite(row.efficiency)},
                    {"beyond_measured", row.beyond_measured},
                    {"unsupported", row.unsupported}});
  out["predictions"] = std::move(rows);
  out["efficiency_below_threshold_at"] = optional_number(fit.efficiency_below_threshold_at);
  out["best_processors"] = optional_number(fit.best_processors);
  out["still_falling"] = fit.still_falling;
  out["warnings"] = warning_texts(fit);
  return out;
}

}  // namespace

nlohmann::ordered_json prediction_json(const analysis::scaling::ScalingStudy& study) {
  json groups = json::array();
  for (const auto& group : study.groups) {
    json runs = json::array();
    for (const auto& run : group.runs)
      runs.push_back({{"directory", run.directory},
                      {"processors", run.processors},
                      {"repetition", run.repetition},
                      {"time", run.time}});
    json losses = json::array();
    for (const auto& loss : group.losses)
      losses.push_back({{"component", analysis::scaling::loss_component_name(loss.component)},
                        {"summary", loss_summary(loss.fit)},
                        {"fit", fit_json(loss.fit)}});
    json intervals = json::array();
    for (const auto& interval : group.growing)
      intervals.push_back({{"kind", kind_key(interval.identity.kind)},
                           {"name", interval.identity.name},
                           {"file", interval.identity.file},
                           {"line", interval.identity.line},
                           {"level", interval.level},
                           {"growth", finite(interval.growth)},
                           {"share_at_max", finite(interval.share_at_max)},
                           {"summary", interval_summary(interval.fit)},
                           {"fit", fit_json(interval.fit)}});
    groups.push_back({{"parameters", group.parameters},
                      {"unit", group.unit},
                      {"runs", std::move(runs)},
                      {"program", fit_json(group.program)},
                      {"losses", std::move(losses)},
                      {"growing_intervals", std::move(intervals)}});
  }
  return {{"groups", std::move(groups)}, {"warnings", study.warnings}};
}

}  // namespace parperf::report
