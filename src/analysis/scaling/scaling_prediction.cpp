#include "analysis/scaling/scaling_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace parperf::analysis::scaling {
namespace {

// Above these the warnings speak (docs/predict.md).
constexpr double kNoisySpread = 0.10;
constexpr double kPoorFit = 0.10;
constexpr double kBrokenTrend = 0.15;
// Two models whose leave-one-out errors differ by less than this are equally good: the simpler wins.
constexpr double kTie = 0.01;

std::string counts_text(double p) { return fmt::format("{:g}", p); }

// The series with its points sorted, merged by count, and cleared of values no time can have.
ScalingSeries cleaned(const ScalingSeries& series, std::vector<ScalingWarning>& warnings) {
  std::vector<ScalingPoint> points;
  std::size_t rejected = 0;
  for (const ScalingPoint& point : series.points) {
    if (!(point.processors >= 1) || !std::isfinite(point.processors)) {
      rejected += point.times.size();
      continue;
    }
    ScalingPoint kept{point.processors, {}};
    for (const double t : point.times) {
      if (std::isfinite(t) && t >= 0)
        kept.times.push_back(t);
      else
        ++rejected;
    }
    if (kept.times.empty()) continue;
    auto same = std::find_if(points.begin(), points.end(),
                             [&](const ScalingPoint& p) { return p.processors == kept.processors; });
    if (same != points.end())
      same->times.insert(same->times.end(), kept.times.begin(), kept.times.end());
    else
      points.push_back(std::move(kept));
  }
  std::sort(points.begin(), points.end(),
            [](const ScalingPoint& a, const ScalingPoint& b) { return a.processors < b.processors; });
  if (rejected)
    warnings.push_back({ScalingWarningKind::rejected_values,
                        fmt::format("{} measurement{} left out: a time must be a number of at least 0, at "
                                    "a count of at least 1",
                                    rejected, rejected == 1 ? "" : "s")});
  return {std::move(points)};
}

std::vector<double> table_counts(const ScalingSeries& series, int max_processors) {
  std::set<double> counts;
  for (double p = 1; p <= max_processors; p *= 2) counts.insert(p);
  counts.insert(max_processors);
  for (const ScalingPoint& point : series.points)
    if (point.processors <= max_processors) counts.insert(point.processors);
  return {counts.begin(), counts.end()};
}

bool better(const PerformanceModel& a, const PerformanceModel& b) {
  const double ea = *a.errors.loo, eb = *b.errors.loo;
  if (std::abs(ea - eb) > kTie) return ea < eb;
  if (a.complexity() != b.complexity()) return a.complexity() < b.complexity();
  return ea < eb;
}

// A time is never negative: a model that predicts one anywhere up to the largest count asked for
// describes something else than the program, however well it fits the measured counts.
bool never_negative(const PerformanceModel& model, const ScalingSeries& series, int max_processors) {
  for (const double p : table_counts(series, max_processors))
    if (model.predict(p) < 0) return false;
  return true;
}

std::vector<PerformanceModel> cross_validated_models(const ScalingSeries& series,
                                                     const ScalingOptions& options) {
  std::vector<PerformanceModel> models;
  for (const Hypothesis& hypothesis : pmnf_hypotheses(options.max_terms)) {
    // Leave-one-out needs a count more than the unknowns; two-term models need two more: on four
    // counts each of their leave-one-out fits passes through all its points, and the winner would
    // be whichever fits the noise best (seen on a plain Amdahl program).
    const std::size_t unknowns = hypothesis.terms.size() + 1;
    if (series.points.size() < unknowns + (unknowns > 2 ? 2 : 1)) continue;
    auto model = fit_hypothesis(hypothesis, series, true);
    if (model && model->errors.loo && never_negative(*model, series, options.max_processors))
      models.push_back(std::move(*model));
  }
  std::sort(models.begin(), models.end(), better);
  return models;
}

// The chosen law's time at p, for the table.
double law_time(const ScalingFit& fit, double p) {
  switch (fit.recommended) {
    case Law::amdahl:
      return fit.amdahl ? fit.amdahl->predict(p) : NAN;
    case Law::gustafson:
      return fit.gustafson ? fit.gustafson->predict(p) : NAN;
    case Law::pmnf:
      return fit.model ? fit.model->predict(p) : NAN;
  }
  return NAN;
}

// The models behind the band: the chosen PMNF form (Amdahl's is one) refitted on the per-count
// minima and maxima of the repetitions. Gustafson's law gets no refit: its band is its error.
std::pair<std::optional<PerformanceModel>, std::optional<PerformanceModel>> band_models(
    const ScalingFit& fit) {
  const PerformanceModel* form = fit.recommended == Law::pmnf ? (fit.model ? &*fit.model : nullptr)
                                 : fit.recommended == Law::amdahl
                                     ? (fit.amdahl ? &fit.amdahl->model : nullptr)
                                     : nullptr;
  if (!form) return {};
  std::vector<double> processors, minima, maxima;
  for (const ScalingPoint& point : fit.series.points) {
    processors.push_back(point.processors);
    minima.push_back(point.min());
    maxima.push_back(point.max());
  }
  return {refit(*form, processors, minima), refit(*form, processors, maxima)};
}

void fill_table(ScalingFit& fit, const ScalingOptions& options) {
  const double largest = fit.series.points.back().processors;
  const double supported = largest * options.extrapolation_limit;
  const auto& first = fit.series.points.front();
  fit.reference_measured = first.processors == 1;
  fit.reference_t1 = fit.reference_measured ? first.median() : law_time(fit, 1);
  const auto [low_model, high_model] = band_models(fit);
  const double error = fit.recommended_error.value_or(0);
  bool non_positive = false;
  for (const double p : table_counts(fit.series, options.max_processors)) {
    ScalingPrediction row;
    row.processors = p;
    row.time = law_time(fit, p);
    double low = row.time, high = row.time;
    for (const auto* model : {&low_model, &high_model})
      if (*model) {
        low = std::min(low, (*model)->predict(p));
        high = std::max(high, (*model)->predict(p));
      }
    row.low = std::max(0.0, low * (1 - error));
    row.high = high * (1 + error);
    row.beyond_measured = p > largest;
    row.unsupported = p > supported;
    if (!(row.time > 0)) {
      non_positive = true;
      row.unsupported = true;
    } else if (fit.reference_t1 > 0) {
      row.speedup = fit.reference_t1 / row.time;
      row.efficiency = row.speedup / p;
    }
    fit.predictions.push_back(row);
  }
  if (non_positive)
    fit.warnings.push_back({ScalingWarningKind::regime_change,
                            "the model predicts no time at all at some counts: it cannot hold there"});

  for (const ScalingPrediction& row : fit.predictions)
    if (row.time > 0 && row.efficiency < options.efficiency_threshold) {
      fit.efficiency_below_threshold_at = row.processors;
      break;
    }
  const ScalingPrediction* best = nullptr;
  const ScalingPrediction* last_supported = nullptr;
  for (const ScalingPrediction& row : fit.predictions) {
    if (row.unsupported || !(row.time > 0)) continue;
    last_supported = &row;
    if (!best || row.time < best->time) best = &row;
  }
  if (best) {
    fit.best_processors = best->processors;
    fit.still_falling = best == last_supported && best->processors < options.max_processors;
  }
  if (options.max_processors > supported)
    fit.warnings.push_back(
        {ScalingWarningKind::unsupported_extrapolation,
         fmt::format("predictions beyond {} processors ({:g} times the largest measured count, {}) are "
                     "extrapolations the data does not support: measure at larger counts to trust them",
                     counts_text(supported), options.extrapolation_limit, counts_text(largest))});
}

void check_trend(ScalingFit& fit) {
  if (fit.recommended_error && *fit.recommended_error > kPoorFit)
    fit.warnings.push_back(
        {ScalingWarningKind::regime_change,
         fmt::format("the best model still misses the counts it did not see by {:.0f}% on average: the "
                     "program may change its behaviour between the measured counts (a regime change), "
                     "so predictions are doubtful",
                     100 * *fit.recommended_error)});
  // A form fitted to the smaller counts only, predicting the next one: where it misses, the program
  // changes its behaviour (a model over all counts can bend to both sides and hide it). Two forms are
  // asked: the chosen one, and Amdahl's (c0 + c1/p), the law of a program whose costs do not grow
  // with p; a cost that starts to grow (an exchange with every other rank) breaks it first.
  const auto& points = fit.series.points;
  std::vector<std::vector<ModelTerm>> forms;
  if (fit.model) forms.push_back(fit.model->terms);
  forms.push_back({ModelTerm{0, -1.0, 0}});
  for (const auto& terms : forms) {
    for (std::size_t known = std::max<std::size_t>(terms.size() + 2, 3); known < points.size(); ++known) {
      const ScalingSeries earlier{{points.begin(), points.begin() + static_cast<std::ptrdiff_t>(known)}};
      const auto trend = fit_hypothesis({terms}, earlier, false);
      if (!trend) continue;
      const double measured = points[known].median();
      const double predicted = trend->predict(points[known].processors);
      const double miss = std::abs(predicted - measured) / error_scale(fit.series, measured);
      if (miss <= kBrokenTrend) continue;
      fit.warnings.push_back(
          {ScalingWarningKind::regime_change,
           fmt::format(
               "the time at {} processors ({:.3g} s) breaks the trend of the smaller counts ({:.3g} s "
               "expected from {}, {:.0f}% off): {}; predictions beyond the measured counts are doubtful",
               counts_text(points[known].processors), measured, predicted,
               terms.size() == 1 && terms[0].p_exponent == -1 && terms[0].log_exponent == 0
                   ? "Amdahl's law of those counts"
                   : "the chosen model of those counts",
               100 * miss,
               measured > predicted ? "a cost that grows with the processors is appearing"
                                    : "the program scales better there than before")});
      return;
    }
  }
}

}  // namespace

double ScalingFit::predict(double p) const { return law_time(*this, p); }

std::string_view law_name(Law law) {
  switch (law) {
    case Law::amdahl:
      return "Amdahl";
    case Law::gustafson:
      return "Gustafson";
    case Law::pmnf:
      return "PMNF";
  }
  return "?";
}

ScalingFit fit_scaling(const ScalingSeries& series, const ScalingOptions& options) {
  ScalingFit fit;
  fit.series = cleaned(series, fit.warnings);
  const auto& points = fit.series.points;
  if (points.empty()) {
    fit.warnings.push_back({ScalingWarningKind::no_data, "no measurement: nothing to model"});
    return fit;
  }
  for (const ScalingPoint& point : points)
    if (point.spread() > kNoisySpread)
      fit.warnings.push_back(
          {ScalingWarningKind::noisy_repetitions,
           fmt::format("the {} runs at {} processors differ by {:.0f}% of their median: the band shows the "
                       "spread; more repetitions would narrow it",
                       point.times.size(), counts_text(point.processors), 100 * point.spread())});
  if (points.size() == 1) {
    fit.warnings.push_back(
        {ScalingWarningKind::single_count,
         fmt::format("runs at one processor count only ({}): a model needs runs at two counts at least, and "
                     "three for its error",
                     counts_text(points.front().processors))});
    return fit;
  }

  fit.amdahl = fit_amdahl(fit.series);
  fit.gustafson = fit_gustafson(fit.series);
  if (fit.amdahl && fit.amdahl->clamped)
    fit.warnings.push_back({ScalingWarningKind::clamped_fraction,
                            "the least-squares serial fraction is outside 0..1 (the program scales better "
                            "than Amdahl's law allows, e.g. from cache effects): Amdahl's f is clamped"});
  fit.candidates = cross_validated_models(fit.series, options);
  if (!fit.candidates.empty()) fit.model = fit.candidates.front();
  if (fit.candidates.size() > options.kept_candidates) fit.candidates.resize(options.kept_candidates);

  if (points.size() == 2) {
    fit.warnings.push_back(
        {ScalingWarningKind::too_few_counts,
         fmt::format("runs at two processor counts only ({} and {}): Amdahl's law fits them "
                     "exactly, so no error can be estimated; measure a third count",
                     counts_text(points[0].processors), counts_text(points[1].processors))});
    if (!fit.amdahl) return fit;
    fit.recommended = Law::amdahl;
  } else {
    // The PMNF search contains Amdahl's form; a law is chosen over it only when it predicts better.
    fit.recommended = fit.model ? Law::pmnf : Law::amdahl;
    fit.recommended_error = fit.model ? fit.model->errors.loo : std::nullopt;
    auto consider = [&](Law law, const std::optional<double>& error) {
      if (error && (!fit.recommended_error || *error + kTie < *fit.recommended_error)) {
        fit.recommended = law;
        fit.recommended_error = error;
      }
    };
    if (fit.amdahl) consider(Law::amdahl, fit.amdahl->model.errors.loo);
    if (fit.gustafson) consider(Law::gustafson, fit.gustafson->errors.loo);
    if (!fit.recommended_error && !fit.amdahl) return fit;
  }
  fill_table(fit, options);
  check_trend(fit);
  return fit;
}

}  // namespace parperf::analysis::scaling
