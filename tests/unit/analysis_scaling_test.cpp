// The scaling models against synthetic data from known laws: every expected value is the law's
// own parameter, every tolerance says what noise the data was given.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "analysis/scaling/least_squares.hpp"
#include "analysis/scaling/performance_model.hpp"
#include "analysis/scaling/scaling_prediction.hpp"
#include "analysis/scaling/scaling_study.hpp"

namespace parperf::analysis::scaling {
namespace {

// Deterministic noise in [-amplitude, +amplitude]: the tests must not depend on a random seed.
double wobble(int i, double amplitude) { return amplitude * std::sin(1.7 * i + 0.3); }

ScalingSeries series_of(const std::vector<double>& counts, const std::function<double(double)>& law,
                        double noise = 0, int repetitions = 1) {
  ScalingSeries series;
  int i = 0;
  for (const double p : counts) {
    ScalingPoint point{p, {}};
    for (int r = 0; r < repetitions; ++r) point.times.push_back(law(p) * (1 + wobble(i++, noise)));
    series.points.push_back(point);
  }
  return series;
}

double amdahl(double p) { return 10 * (0.1 + 0.9 / p); }
const std::vector<double> kPowersOfTwo = {1, 2, 4, 8, 16};

bool has_warning(const ScalingFit& fit, ScalingWarningKind kind) {
  for (const auto& w : fit.warnings)
    if (w.kind == kind) return true;
  return false;
}

double table_time(const ScalingFit& fit, double p) {
  for (const auto& row : fit.predictions)
    if (row.processors == p) return row.time;
  return NAN;
}

TEST(LeastSquares, SolvesAnExactSystemAndRefusesADependentOne) {
  LeastSquaresProblem problem{{{1, 1}, {1, 2}, {1, 3}}, {3, 5, 7}, {}};
  const auto c = solve_least_squares(problem);
  ASSERT_TRUE(c.has_value());
  EXPECT_NEAR((*c)[0], 1, 1e-12);
  EXPECT_NEAR((*c)[1], 2, 1e-12);
  LeastSquaresProblem dependent{{{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}, {}};
  EXPECT_FALSE(solve_least_squares(dependent).has_value()) << "two proportional columns have no unique fit";
}

TEST(Amdahl, RecoversTheSerialFractionOfExactData) {
  const auto fit = fit_amdahl(series_of(kPowersOfTwo, amdahl));
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->serial_fraction, 0.1, 1e-6) << "data made with f = 0.1";
  EXPECT_NEAR(fit->t1, 10, 1e-6) << "data made with T(1) = 10 s";
  ASSERT_TRUE(fit->model.errors.loo.has_value());
  EXPECT_LT(*fit->model.errors.loo, 1e-6);
}

TEST(Amdahl, RecoversTheSerialFractionThroughTwoPercentNoise) {
  const auto fit = fit_amdahl(series_of(kPowersOfTwo, amdahl, 0.02));
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->serial_fraction, 0.1, 0.02) << "f = 0.1 under ±2 % noise";
}

TEST(Gustafson, RecoversItsSerialFraction) {
  const auto law = [](double p) { return 8 / (0.2 + 0.8 * p); };
  const auto fit = fit_gustafson(series_of(kPowersOfTwo, law));
  ASSERT_TRUE(fit.has_value());
  EXPECT_NEAR(fit->serial_fraction, 0.2, 1e-4) << "data made with S(p) = p − 0.2·(p − 1)";
  EXPECT_NEAR(fit->t1, 8, 1e-3);
}

TEST(PerformanceModelSearch, FindsTheTermsOfACommunicationLaw) {
  // Work that divides plus a tree-shaped reduction: T = 2 + 30/p + 0.5·log2(p).
  const auto law = [](double p) { return 2 + 30 / p + 0.5 * std::log2(p); };
  const auto fit = fit_scaling(series_of({1, 2, 4, 8, 16, 32, 64}, law));
  ASSERT_TRUE(fit.model.has_value());
  ASSERT_EQ(fit.model->terms.size(), 2u) << "chosen: " << fit.model->formula();
  bool divides = false, reduces = false;
  for (const auto& term : fit.model->terms) {
    if (term.p_exponent == -1 && term.log_exponent == 0) {
      divides = true;
      EXPECT_NEAR(term.coefficient, 30, 0.3) << fit.model->formula();
    }
    if (term.p_exponent == 0 && term.log_exponent == 1) {
      reduces = true;
      EXPECT_NEAR(term.coefficient, 0.5, 0.005) << fit.model->formula();
    }
  }
  EXPECT_TRUE(divides && reduces) << "expected the terms p^-1 and log2(p), chose " << fit.model->formula();
  EXPECT_NEAR(fit.model->constant, 2, 0.02);
}

TEST(PerformanceModelSearch, FindsAQuadraticGrowth) {
  const auto fit = fit_scaling(series_of({1, 2, 4, 8, 16, 32}, [](double p) { return 5 + 0.01 * p * p; }));
  ASSERT_TRUE(fit.model.has_value());
  ASSERT_EQ(fit.model->terms.size(), 1u) << fit.model->formula();
  EXPECT_EQ(fit.model->terms[0].p_exponent, 2) << fit.model->formula();
  EXPECT_EQ(fit.model->terms[0].log_exponent, 0) << fit.model->formula();
}

TEST(PerformanceModelSearch, ChoosesTheConstantForConstantData) {
  const auto fit = fit_scaling(series_of(kPowersOfTwo, [](double) { return 3.0; }));
  ASSERT_TRUE(fit.model.has_value());
  EXPECT_TRUE(fit.model->terms.empty()) << fit.model->formula();
}

TEST(Prediction, PredictsAHeldOutCount) {
  // Fitted on 1..32, the time at 64 from the law itself.
  const auto fit = fit_scaling(series_of({1, 2, 4, 8, 16, 32}, amdahl, 0.01));
  EXPECT_NEAR(table_time(fit, 64), amdahl(64), 0.02 * amdahl(64));
}

TEST(Prediction, ThresholdAndBestCountFollowTheLaw) {
  // Amdahl f = 0.1: efficiency 1 / (p·(0.1 + 0.9/p)) = 1 / (0.1·p + 0.9) falls below 0.5 at p > 11,
  // so among the table's powers of two first at 16; the time falls at every count, so the best is
  // the largest supported one (32 = 4 × 8), still falling.
  ScalingOptions options;
  options.max_processors = 64;
  const auto fit = fit_scaling(series_of({1, 2, 4, 8}, amdahl), options);
  ASSERT_TRUE(fit.efficiency_below_threshold_at.has_value());
  EXPECT_EQ(*fit.efficiency_below_threshold_at, 16);
  ASSERT_TRUE(fit.best_processors.has_value());
  EXPECT_EQ(*fit.best_processors, 32);
  EXPECT_TRUE(fit.still_falling);
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::unsupported_extrapolation))
      << "64 is 8 times the largest measured count";
}

TEST(Prediction, ARegimeChangeIsFlagged) {
  // Time falls like 1/p up to 8, then communication takes over and it grows linearly.
  const auto law = [](double p) { return p <= 8 ? 16 / p : 2 + 0.5 * (p - 8); };
  const auto fit = fit_scaling(series_of({1, 2, 4, 8, 16, 32}, law));
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::regime_change))
      << "1/p up to 8 processors, then linear growth, went unnoticed";
}

TEST(Prediction, TwoCountsGiveAmdahlWithoutAnError) {
  const auto fit = fit_scaling(series_of({1, 4}, amdahl));
  ASSERT_TRUE(fit.amdahl.has_value());
  EXPECT_EQ(fit.recommended, Law::amdahl);
  EXPECT_FALSE(fit.recommended_error.has_value()) << "two counts cannot be cross-validated";
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::too_few_counts));
  EXPECT_FALSE(fit.predictions.empty());
}

TEST(Prediction, OneCountGivesNoModelAndSaysWhy) {
  const auto fit = fit_scaling(series_of({4}, amdahl));
  EXPECT_FALSE(fit.amdahl.has_value());
  EXPECT_TRUE(fit.predictions.empty());
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::single_count));
}

TEST(Prediction, ImpossibleTimesAreLeftOutAndSaid) {
  ScalingSeries series = series_of(kPowersOfTwo, amdahl);
  series.points[1].times.push_back(NAN);
  series.points[2].times.push_back(-1);
  const auto fit = fit_scaling(series);
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::rejected_values));
  ASSERT_TRUE(fit.amdahl.has_value());
  EXPECT_NEAR(fit.amdahl->serial_fraction, 0.1, 1e-6) << "the good values alone decide";
  for (const auto& row : fit.predictions) EXPECT_TRUE(std::isfinite(row.time)) << "at " << row.processors;
}

TEST(Prediction, NoisyRepetitionsAreSaidAndTheBandHoldsTheTruth) {
  const auto fit = fit_scaling(series_of(kPowersOfTwo, amdahl, 0.08, 3));
  EXPECT_TRUE(has_warning(fit, ScalingWarningKind::noisy_repetitions)) << "repetitions ±8 % apart";
  for (const auto& row : fit.predictions) {
    if (row.unsupported) continue;
    EXPECT_LE(row.low, amdahl(row.processors)) << "at " << row.processors;
    EXPECT_GE(row.high, amdahl(row.processors)) << "at " << row.processors;
  }
}

IntervalIdentity named(const std::string& name) {
  IntervalIdentity id;
  id.kind = 1;
  id.name = name;
  return id;
}

// Runs of a program with two intervals: "solve" divides its 8 s among the processors, "exchange"
// costs 0.01·p s (it grows); and the same program at another problem size (n=2), twice as long.
std::vector<RunSample> study_runs() {
  std::vector<RunSample> runs;
  for (const std::string n : {"1", "2"}) {
    const double size = std::stod(n);
    for (const double p : {1.0, 2.0, 4.0, 8.0, 16.0}) {
      RunSample run;
      run.directory = "n" + n + "-p" + std::to_string(static_cast<int>(p));
      run.processors = p;
      run.unit = "ranks";
      run.parameters = {{"n", n}};
      const double solve = size * 8 / p, exchange = 0.01 * p;
      IntervalSample program{"program", {}, 0, solve + exchange, {}};
      for (const LossComponent c : kLossComponents) program.losses[c] = 0;
      program.losses[LossComponent::communication] = exchange * p;
      IntervalSample solve_interval{"program/solve", named("solve"), 1, solve, {}};
      IntervalSample exchange_interval{"program/exchange", named("exchange"), 1, exchange, {}};
      run.intervals = {program, solve_interval, exchange_interval};
      runs.push_back(run);
    }
  }
  return runs;
}

TEST(ScalingStudy, ModelsEachProblemSizeApart) {
  const auto runs = study_runs();
  const ScalingStudy study = study_scaling(runs);
  ASSERT_EQ(study.groups.size(), 2u) << "runs at n=1 and n=2 are two series, not one";
  EXPECT_EQ(study.groups[0].parameters.at("n"), "1");
  EXPECT_EQ(study.groups[0].runs.size(), 5u);
  EXPECT_TRUE(study.warnings.empty());
}

TEST(ScalingStudy, RanksTheGrowingIntervalFirstAndModelsTheGrowingLoss) {
  const auto runs = study_runs();
  const ScalingStudy study = study_scaling(runs);
  const StudyGroup& group = study.groups[0];
  ASSERT_FALSE(group.growing.empty());
  EXPECT_EQ(group.growing.front().identity.name, "exchange")
      << "0.01·p s grows, 8/p s falls: the exchange is the scalability bug";
  EXPECT_GT(group.growing.front().growth, 1) << "predicted at 64 over measured at 16";
  ASSERT_EQ(group.losses.size(), 1u) << "only communication is ever lost";
  EXPECT_EQ(group.losses[0].component, LossComponent::communication);
  ASSERT_TRUE(group.losses[0].fit.model.has_value());
  ASSERT_EQ(group.losses[0].fit.model->terms.size(), 1u) << group.losses[0].fit.model->formula();
  EXPECT_EQ(group.losses[0].fit.model->terms[0].p_exponent, 2)
      << "0.01·p s on each of p processors is 0.01·p² processor-seconds: "
      << group.losses[0].fit.model->formula();
}

TEST(ScalingStudy, MixedUnitsAreSaid) {
  auto runs = study_runs();
  runs[0].unit = "threads";
  EXPECT_FALSE(study_scaling(runs).warnings.empty()) << "threads and ranks counted as one processor count";
}

}  // namespace
}  // namespace parperf::analysis::scaling
