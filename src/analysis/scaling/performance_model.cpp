#include "analysis/scaling/performance_model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include <fmt/format.h>

#include "analysis/scaling/least_squares.hpp"

namespace parperf::analysis::scaling {
namespace {

// The exponent sets of the PMNF search: the usual Extra-P set of growing powers and its negative
// counterpart for the falling times of strong scaling.
constexpr double kPowers[] = {-2.0, -1.5,    -1.0, -2.0 / 3, -0.5, -1.0 / 3, -0.25, 0.0,
                              0.25, 1.0 / 3, 0.5,  2.0 / 3,  0.75, 1.0,      1.25,  4.0 / 3,
                              1.5,  5.0 / 3, 1.75, 2.0,      2.5,  3.0};
constexpr int kLogPowers[] = {0, 1, 2};

double term_value(double p, double p_exponent, int log_exponent) {
  double value = p_exponent == 0 ? 1.0 : std::pow(p, p_exponent);
  if (log_exponent > 0) value *= std::pow(std::log2(p), log_exponent);
  return value;
}

struct Observations {
  std::vector<double> processors;
  std::vector<double> values;
  std::vector<double> scales;  // error_scale of each value
};

Observations observations_of(const ScalingSeries& series) {
  Observations o;
  for (const ScalingPoint& point : series.points) {
    o.processors.push_back(point.processors);
    o.values.push_back(point.median());
    o.scales.push_back(error_scale(series, point.median()));
  }
  return o;
}

Observations without(const Observations& o, std::size_t left_out) {
  Observations rest;
  for (std::size_t i = 0; i < o.values.size(); ++i) {
    if (i == left_out) continue;
    rest.processors.push_back(o.processors[i]);
    rest.values.push_back(o.values[i]);
    rest.scales.push_back(o.scales[i]);
  }
  return rest;
}

// The coefficients of `terms` (and the constant) fitted to `o`; false when unsolvable.
bool fit_coefficients(PerformanceModel& model, const Observations& o) {
  LeastSquaresProblem problem;
  for (std::size_t i = 0; i < o.values.size(); ++i) {
    std::vector<double> row = {1.0};
    for (const ModelTerm& term : model.terms)
      row.push_back(term_value(o.processors[i], term.p_exponent, term.log_exponent));
    problem.rows.push_back(std::move(row));
    problem.values.push_back(o.values[i]);
    problem.weights.push_back(1.0 / (o.scales[i] * o.scales[i]));
  }
  const auto solution = solve_least_squares(problem);
  if (!solution) return false;
  model.constant = (*solution)[0];
  for (std::size_t k = 0; k < model.terms.size(); ++k) model.terms[k].coefficient = (*solution)[k + 1];
  return true;
}

// The errors of a prediction function over `o`, and its leave-one-out errors from `fit_without`
// (the function fitted without observation i), when given.
ModelErrors errors_of(const Observations& o, std::size_t unknowns,
                      const std::function<double(double)>& predict,
                      const std::function<std::optional<double>(std::size_t)>& predict_left_out) {
  ModelErrors errors;
  const std::size_t n = o.values.size();
  double smape = 0, squares = 0, total = 0;
  const double mean = std::accumulate(o.values.begin(), o.values.end(), 0.0) / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double fitted = predict(o.processors[i]);
    const double residual = (fitted - o.values[i]) / o.scales[i];
    errors.rss += residual * residual;
    const double denominator = std::abs(fitted) + std::abs(o.values[i]);
    smape += denominator > 0 ? 2 * std::abs(fitted - o.values[i]) / denominator : 0;
    squares += (o.values[i] - fitted) * (o.values[i] - fitted);
    total += (o.values[i] - mean) * (o.values[i] - mean);
  }
  errors.smape = smape / static_cast<double>(n);
  const double r2 = total > 0 ? 1 - squares / total : 1;
  errors.adjusted_r2 =
      n > unknowns ? 1 - (1 - r2) * static_cast<double>(n - 1) / static_cast<double>(n - unknowns) : r2;
  if (predict_left_out) {
    double sum = 0, largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::optional<double> predicted = predict_left_out(i);
      if (!predicted || !std::isfinite(*predicted)) return errors;  // some subset unsolvable: no LOO
      const double error = std::abs(*predicted - o.values[i]) / o.scales[i];
      sum += error;
      largest = std::max(largest, error);
    }
    errors.loo = sum / static_cast<double>(n);
    errors.loo_max = largest;
  }
  return errors;
}

std::string number_text(double value) { return fmt::format("{:.3g}", value); }

std::string power_text(double exponent) {
  static constexpr struct {
    double value;
    const char* text;
  } kFractions[] = {{-2.0 / 3, "-2/3"}, {-1.0 / 3, "-1/3"}, {1.0 / 3, "1/3"},
                    {2.0 / 3, "2/3"},   {4.0 / 3, "4/3"},   {5.0 / 3, "5/3"}};
  for (const auto& fraction : kFractions)
    if (std::abs(exponent - fraction.value) < 1e-9) return fmt::format("({})", fraction.text);
  return fmt::format("{:g}", exponent);
}

// f and T1 of Gustafson's law fitted to `o`: T1 closed-form for each f, f by a grid refined by
// golden section (the error is smooth and, over 0..1, has one minimum for real data).
std::optional<GustafsonFit> gustafson_on(const Observations& o) {
  if (o.values.size() < 2) return std::nullopt;
  auto fit_t1 = [&](double f, double& t1) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < o.values.size(); ++i) {
      const double g = 1 / (f + (1 - f) * o.processors[i]) / o.scales[i];
      num += g * o.values[i] / o.scales[i];
      den += g * g;
    }
    t1 = den > 0 ? num / den : 0;
    double error = 0;
    for (std::size_t i = 0; i < o.values.size(); ++i) {
      const double r = (t1 / (f + (1 - f) * o.processors[i]) - o.values[i]) / o.scales[i];
      error += r * r;
    }
    return error;
  };
  double best_f = 0, t1 = 0, best_error = INFINITY;
  constexpr int kSteps = 200;
  for (int s = 0; s <= kSteps; ++s) {
    const double f = static_cast<double>(s) / kSteps;
    const double error = fit_t1(f, t1);
    if (error < best_error) best_error = error, best_f = f;
  }
  double lo = std::max(0.0, best_f - 1.0 / kSteps), hi = std::min(1.0, best_f + 1.0 / kSteps);
  const double golden = (std::sqrt(5.0) - 1) / 2;
  for (int iteration = 0; iteration < 60; ++iteration) {
    const double a = hi - golden * (hi - lo), b = lo + golden * (hi - lo);
    if (fit_t1(a, t1) < fit_t1(b, t1))
      hi = b;
    else
      lo = a;
  }
  GustafsonFit fit;
  fit.serial_fraction = (lo + hi) / 2;
  fit_t1(fit.serial_fraction, fit.t1);
  if (!(fit.t1 > 0) || !std::isfinite(fit.t1)) return std::nullopt;
  return fit;
}

}  // namespace

double error_scale(const ScalingSeries& series, double value) {
  double largest = 0;
  for (const ScalingPoint& point : series.points) largest = std::max(largest, std::abs(point.median()));
  return std::max({std::abs(value), 0.01 * largest, 1e-12});
}

double PerformanceModel::predict(double p) const {
  double value = constant;
  for (const ModelTerm& term : terms)
    value += term.coefficient * term_value(p, term.p_exponent, term.log_exponent);
  return value;
}

std::string term_factor(const ModelTerm& term) {
  std::string factor;
  if (term.p_exponent != 0) factor = term.p_exponent == 1 ? "p" : "p^" + power_text(term.p_exponent);
  if (term.log_exponent > 0) {
    if (!factor.empty()) factor += "·";
    factor += term.log_exponent == 1 ? "log2(p)" : fmt::format("log2(p)^{}", term.log_exponent);
  }
  return factor;
}

std::string PerformanceModel::formula() const {
  std::string text = number_text(constant);
  for (const ModelTerm& term : terms)
    text += fmt::format(" {} {}·{}", term.coefficient < 0 ? "-" : "+",
                        number_text(std::abs(term.coefficient)), term_factor(term));
  return text;
}

double PerformanceModel::complexity() const {
  double sum = 0;
  for (const ModelTerm& term : terms) sum += std::abs(term.p_exponent) + term.log_exponent;
  return 100.0 * static_cast<double>(terms.size()) + sum;
}

std::vector<Hypothesis> pmnf_hypotheses(std::size_t max_terms) {
  std::vector<ModelTerm> single;
  for (const double i : kPowers)
    for (const int j : kLogPowers)
      if (i != 0 || j != 0) single.push_back({0, i, j});
  std::vector<Hypothesis> hypotheses = {Hypothesis{}};  // the constant
  if (max_terms >= 1)
    for (const ModelTerm& t : single) hypotheses.push_back({{t}});
  if (max_terms >= 2)
    for (std::size_t a = 0; a < single.size(); ++a)
      for (std::size_t b = a + 1; b < single.size(); ++b)
        // Two terms of one power differ only by a logarithm: too alike to tell apart on few counts.
        if (single[a].p_exponent != single[b].p_exponent) hypotheses.push_back({{single[a], single[b]}});
  return hypotheses;
}

std::optional<PerformanceModel> fit_hypothesis(const Hypothesis& hypothesis, const ScalingSeries& series,
                                               bool cross_validate) {
  const Observations o = observations_of(series);
  const std::size_t unknowns = hypothesis.terms.size() + 1;
  if (o.values.size() < unknowns) return std::nullopt;
  PerformanceModel model;
  model.terms = hypothesis.terms;
  if (!fit_coefficients(model, o)) return std::nullopt;
  std::function<std::optional<double>(std::size_t)> left_out;
  if (cross_validate && o.values.size() >= unknowns + 1) {
    left_out = [&](std::size_t i) -> std::optional<double> {
      PerformanceModel partial;
      partial.terms = hypothesis.terms;
      if (!fit_coefficients(partial, without(o, i))) return std::nullopt;
      return partial.predict(o.processors[i]);
    };
  }
  model.errors = errors_of(
      o, unknowns, [&](double p) { return model.predict(p); }, left_out);
  return model;
}

std::optional<PerformanceModel> refit(const PerformanceModel& model, const std::vector<double>& processors,
                                      const std::vector<double>& values) {
  ScalingSeries series;
  for (std::size_t i = 0; i < processors.size() && i < values.size(); ++i)
    series.points.push_back({processors[i], {values[i]}});
  Observations o = observations_of(series);
  PerformanceModel fitted;
  fitted.terms = model.terms;
  if (!fit_coefficients(fitted, o)) return std::nullopt;
  return fitted;
}

std::optional<AmdahlFit> fit_amdahl(const ScalingSeries& series) {
  const Hypothesis law = {{ModelTerm{0, -1.0, 0}}};
  std::optional<PerformanceModel> model = fit_hypothesis(law, series, true);
  if (!model) return std::nullopt;
  AmdahlFit fit;
  const double serial = model->constant, parallel = model->terms[0].coefficient;
  fit.t1 = serial + parallel;
  if (!(fit.t1 > 0)) return std::nullopt;
  fit.serial_fraction = serial / fit.t1;
  if (fit.serial_fraction < 0 || fit.serial_fraction > 1) {
    fit.clamped = true;
    fit.serial_fraction = std::clamp(fit.serial_fraction, 0.0, 1.0);
  }
  fit.model = std::move(*model);
  return fit;
}

std::optional<GustafsonFit> fit_gustafson(const ScalingSeries& series) {
  const Observations o = observations_of(series);
  std::optional<GustafsonFit> fit = gustafson_on(o);
  if (!fit) return std::nullopt;
  std::function<std::optional<double>(std::size_t)> left_out;
  if (o.values.size() >= 3) {
    left_out = [&](std::size_t i) -> std::optional<double> {
      const auto partial = gustafson_on(without(o, i));
      return partial ? std::optional<double>(partial->predict(o.processors[i])) : std::nullopt;
    };
  }
  fit->errors = errors_of(
      o, 2, [&](double p) { return fit->predict(p); }, left_out);
  return fit;
}

}  // namespace parperf::analysis::scaling
