// `parperf predict --json`: the study as JSON, times in seconds, efficiencies and errors as
// fractions; a model whose error could not be cross-validated has "loo_error": null.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/scaling/scaling_study.hpp"

namespace parperf::report {

nlohmann::ordered_json prediction_json(const analysis::scaling::ScalingStudy& study);

}  // namespace parperf::report
