// `parperf predict RUN_DIR...`: what it is asked for (predict_command.cpp), shared with
// `parperf run --sweep`, which predicts from the runs it made.
#pragma once

#include <string>
#include <vector>

#include "analysis/scaling/scaling_study.hpp"

namespace parperf::cli {

struct PredictOptions {
  std::vector<std::string> directories;  // run directories, or sweep directories holding runs
  int max_processors = 64;               // --max-procs: predict up to this count
  double efficiency_threshold = 0.5;     // --threshold: the efficiency below which more is waste
  double extrapolation_limit = 4;        // --limit: supported up to this factor beyond the largest count
  bool json = false;
  std::string svg;    // --svg FILE: the speedup plot
  std::string png;    // --png FILE: the same, as PNG
  int intervals = 5;  // --top: the intervals listed by growth
};

// Loads and models the runs; throws std::runtime_error with a message in the user's terms.
analysis::scaling::ScalingStudy predict_scaling(const PredictOptions& options);

// Loads, models and prints; throws std::runtime_error with a message in the user's terms.
void print_prediction(const PredictOptions& options);

}  // namespace parperf::cli
