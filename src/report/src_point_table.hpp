// The SRC points of the text report: the synchronization and communication sites, most lost time
// first, one line each with its share of the program's Total time, its times and where it ran.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include "report/report_model.hpp"
#include "report/text_style.hpp"

namespace parperf::report {

// "== SRC POINTS ..." and the first `max_rows` points (table_rows.hpp); nothing without points.
void render_src_points(std::back_insert_iterator<std::string> out, const Report& report,
                       const TextStyle& style, std::size_t max_rows);

}  // namespace parperf::report
