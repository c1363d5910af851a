// `parperf whatif`'s output (analysis/trace/what_if.hpp): text, or JSON {"measured_time",
// "replayed_time", "predicted_time", "gain", "changes", "network", "self_check"}.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/trace/what_if.hpp"

namespace parperf::report {

std::string whatif_text(const std::string& directory, const analysis::WhatIf& w);
nlohmann::ordered_json whatif_json(const analysis::WhatIf& w);

}  // namespace parperf::report
