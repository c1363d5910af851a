// Loop balance in the JSON report: an interval's `loop_balance` object (docs/report.md lists its
// keys). Times in seconds, fractions 0..1.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/findings.hpp"
#include "analysis/loop_balance.hpp"

namespace parperf::report {

// `finding`: the loop's unbalanced_loop finding, when it has one (null in the object otherwise).
nlohmann::ordered_json loop_balance_json(const analysis::LoopBalance& loop,
                                         const std::optional<analysis::Finding>& finding);

}  // namespace parperf::report
