// The text protocol of `parperf report`, in the style of the DVM performance analyzer: a run
// summary, then for each interval (pre-order) its header, main characteristics, loop iterations,
// user events, comparative characteristics, per-processor rows when asked, and a diagnosis.
#pragma once

#include <string>

#include "report/report_model.hpp"

namespace parperf::report {

std::string render_text(const Report& report);

}  // namespace parperf::report
