// The words of a scaling prediction, shared by its text and JSON renderers: the model lines, the
// conclusions (where efficiency falls below the threshold, the best count), the warnings, and the
// one-line summaries of a loss's and an interval's model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/scaling/scaling_prediction.hpp"

namespace parperf::report {

struct ModelLine {
  std::string law;      // "Amdahl", "Gustafson", "PMNF"
  std::string formula;  // "T(p) = 1.35·(0.111 + 0.889/p)", "0.15 + 1.2·p^-1"
  std::string error;    // "2.1%" or "unknown (...)"
  bool chosen = false;
};

std::vector<ModelLine> model_lines(const analysis::scaling::ScalingFit& fit);

std::string counts_text(const analysis::scaling::ScalingFit& fit);  // "1, 2, 4 and 8 processors"
std::string parameters_text(const std::map<std::string, std::string>& parameters);  // " (n=4096)"
std::string no_prediction_reason(const analysis::scaling::ScalingFit& fit);
std::vector<std::string> conclusions(const analysis::scaling::ScalingFit& fit);
std::vector<std::string> warning_texts(const analysis::scaling::ScalingFit& fit);
std::string error_text(const std::optional<double>& error);  // "2.1%" / "unknown"

// "grows like p^1·log2(p): 0.02 s at 8 → 0.31 s at 64 (error 3%)"
std::string loss_summary(const analysis::scaling::ScalingFit& fit);
std::string interval_summary(const analysis::scaling::ScalingFit& fit);
std::string largest_predicted(const analysis::scaling::ScalingFit& fit);  // "64"

}  // namespace parperf::report
