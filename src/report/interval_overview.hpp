// The overview of the text report: one line per interval, indented by nesting, in the manner of a
// tree profile (ompP's overview): execution time, efficiency, lost time and its largest part,
// entries, the interval and its source. Per-interval characteristics in full are the protocol's
// (text_protocol.hpp, `--details`).
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include "report/report_model.hpp"
#include "report/text_style.hpp"

namespace parperf::report {

// "== INTERVALS ..." and its rows. When the report has more than `max_rows` intervals, the most
// expensive (most Total time) are kept with their ancestors, so every shown row still sits under its
// parent, and one line says how many were left out and how to see them.
void render_interval_overview(std::back_insert_iterator<std::string> out, const Report& report,
                              const TextStyle& style, std::size_t max_rows);

// The largest part of an interval's lost time, in words: "idle 64.6 ms", "insufficient par. 3.2 s",
// "communication 12 ms", "desync 1.1 ms", "waiting 40 µs"; "-" when nothing was lost.
std::string largest_loss_text(const analysis::Characteristics& c);

}  // namespace parperf::report
