// Models of a time over the processor count p, fitted to a scaling series, each with its
// leave-one-out cross-validation error (DESIGN.md section 9):
//
// - the performance-model normal form (PMNF, as Extra-P): T(p) = c0 + Σ_k c_k·p^i_k·log2(p)^j_k
//   with one or two terms. The exponent set holds negative powers because strong scaling makes time
//   fall like 1/p; the positive ones catch what grows (communication, reductions, replicated work).
// - Amdahl's law T(p) = T1·(f + (1 − f)/p): the PMNF hypothesis c0 + c1·p^-1, read as f = c0/(c0+c1).
// - Gustafson's law, scaled speedup S(p) = p − f·(p − 1): T(p) = T1/(f + (1 − f)·p), fitted over f.
//
// Fits weigh each count by 1/T², so relative errors count alike whether a time is seconds or
// microseconds. The leave-one-out error of a model is the mean relative error of predicting each
// count from a fit on all the others: the measure of how well it predicts a count it has not seen,
// which is what a prediction does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/scaling/scaling_series.hpp"

namespace parperf::analysis::scaling {

struct ModelTerm {
  double coefficient = 0;
  double p_exponent = 0;  // i: p^i
  int log_exponent = 0;   // j: log2(p)^j
};

// What a model's fit gives, besides its coefficients.
struct ModelErrors {
  std::optional<double> loo;      // mean relative error predicting each count from the others
  std::optional<double> loo_max;  // the largest of those
  double rss = 0;                 // of the full fit, on the relative residuals
  double smape = 0;               // symmetric mean absolute percentage error of the full fit, 0..2
  double adjusted_r2 = 0;
};

struct PerformanceModel {
  double constant = 0;
  std::vector<ModelTerm> terms;
  ModelErrors errors;

  double predict(double p) const;
  // "0.12 + 3.4·p^-1 + 0.002·log2(p)": coefficients to three significant digits.
  std::string formula() const;
  // Terms, then the sum of their exponents: the simpler of two equally good models is preferred.
  double complexity() const;
};

// A term's factor without its coefficient: "p^-1", "p^(1/2)·log2(p)", "log2(p)^2".
std::string term_factor(const ModelTerm& term);

// One PMNF hypothesis: the exponents of its terms (coefficients to be fitted).
struct Hypothesis {
  std::vector<ModelTerm> terms;  // coefficients unused
};

// Every hypothesis of up to `max_terms` terms over the exponent sets above.
std::vector<Hypothesis> pmnf_hypotheses(std::size_t max_terms);

// The hypothesis fitted to `points` (median times), with errors; nothing when the system cannot be
// solved. `cross_validate` adds the leave-one-out errors (needs more counts than unknowns + 1).
std::optional<PerformanceModel> fit_hypothesis(const Hypothesis& hypothesis, const ScalingSeries& series,
                                               bool cross_validate);

// The same hypothesis fitted to other values at the same counts (the minima or maxima of the
// repetitions, for a band); no errors.
std::optional<PerformanceModel> refit(const PerformanceModel& model, const std::vector<double>& processors,
                                      const std::vector<double>& values);

struct AmdahlFit {
  double serial_fraction = 0;  // f, in 0..1
  double t1 = 0;               // T(1) of the law
  bool clamped = false;        // the least-squares f was outside 0..1
  PerformanceModel model;      // c0 + c1·p^-1, with its errors
  double predict(double p) const { return t1 * (serial_fraction + (1 - serial_fraction) / p); }
};

struct GustafsonFit {
  double serial_fraction = 0;
  double t1 = 0;
  ModelErrors errors;
  double predict(double p) const { return t1 / (serial_fraction + (1 - serial_fraction) * p); }
};

std::optional<AmdahlFit> fit_amdahl(const ScalingSeries& series);
std::optional<GustafsonFit> fit_gustafson(const ScalingSeries& series);

// The scale of a measured value for relative errors: the value itself, but never below 1 % of the
// series' largest, so that a loss that is zero at p = 1 does not make every error infinite.
double error_scale(const ScalingSeries& series, double value);

}  // namespace parperf::analysis::scaling
