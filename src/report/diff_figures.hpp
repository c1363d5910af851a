// How `parperf diff` names the figures it compares: their JSON keys, the same as `parperf report
// --json` uses for them, and their words in the text.
#pragma once

#include <string_view>

#include "analysis/run_comparison.hpp"

namespace parperf::report {

std::string_view compared_figure_key(analysis::ComparedFigure figure);    // "idle_time", "desync_time"
std::string_view compared_figure_words(analysis::ComparedFigure figure);  // "idle time", "desync time"

}  // namespace parperf::report
