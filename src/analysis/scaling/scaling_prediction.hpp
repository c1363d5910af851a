// Everything `parperf predict` says about one quantity: the laws and the PMNF models fitted to its
// series (performance_model.hpp), the one chosen by leave-one-out cross-validation, the prediction
// table up to `max_processors` with a band, speedup and efficiency, where the efficiency falls below
// the threshold, the best count, and the warnings that keep a prediction honest.
//
// The band of a predicted time: the chosen model refitted on the fastest repetition at each count
// and on the slowest, the lower and the higher of those and the prediction, widened by the chosen
// model's leave-one-out error (the relative error it made predicting counts it had not seen). With a
// single repetition per count it is the prediction ± that error; with no cross-validation possible
// (two counts) it is the spread of the repetitions alone, and a warning says the error is unknown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/scaling/performance_model.hpp"
#include "analysis/scaling/scaling_series.hpp"

namespace parperf::analysis::scaling {

struct ScalingOptions {
  int max_processors = 64;
  double efficiency_threshold = 0.5;
  double extrapolation_limit = 4;   // predictions up to this factor beyond the largest count are supported
  std::size_t max_terms = 2;        // of the PMNF hypotheses
  std::size_t kept_candidates = 8;  // the best models kept for the report
};

enum class Law { amdahl, gustafson, pmnf };

struct ScalingPrediction {
  double processors = 1;
  double time = 0;  // the chosen model's
  double low = 0;   // the band (see above)
  double high = 0;
  double speedup = 0;     // T(1) / time, T(1) measured when there is a run on one processor
  double efficiency = 0;  // speedup / processors
  bool beyond_measured = false;
  bool unsupported = false;  // beyond extrapolation_limit × the largest measured count
};

enum class ScalingWarningKind {
  no_data,                    // no usable point
  single_count,               // one processor count: nothing to fit
  too_few_counts,             // two counts: a law fits exactly, no error can be estimated
  rejected_values,            // negative or non-finite times left out
  noisy_repetitions,          // repetitions spread over 10 % of their median
  regime_change,              // the chosen model fits badly, or the largest count breaks the trend
  clamped_fraction,           // Amdahl's least-squares serial fraction was outside 0..1
  unsupported_extrapolation,  // predictions beyond what the data supports
};

struct ScalingWarning {
  ScalingWarningKind kind{};
  std::string text;  // in the user's terms, with the numbers
};

struct ScalingFit {
  ScalingSeries series;  // what was fitted (after rejected values)
  std::optional<AmdahlFit> amdahl;
  std::optional<GustafsonFit> gustafson;
  std::optional<PerformanceModel> model;                // the PMNF model chosen by cross-validation
  std::vector<PerformanceModel> candidates;             // the best PMNF models, best first (model among them)
  Law recommended = Law::pmnf;                          // whose predictions the table holds
  std::optional<double> recommended_error;              // its leave-one-out error; none when unknown
  std::vector<ScalingPrediction> predictions;           // ascending processors; empty without a model
  std::optional<double> efficiency_below_threshold_at;  // the first count in the table below it
  std::optional<double> best_processors;                // shortest predicted time among supported rows
  bool still_falling = false;  // the best is the last supported row: more would still help
  double reference_t1 = 0;     // the T(1) speedups are relative to
  bool reference_measured = false;
  std::vector<ScalingWarning> warnings;

  // The chosen model's time at p; NaN without a model.
  double predict(double p) const;
};

ScalingFit fit_scaling(const ScalingSeries& series, const ScalingOptions& options = {});

std::string_view law_name(Law law);  // "Amdahl", "Gustafson", "PMNF"

}  // namespace parperf::analysis::scaling
