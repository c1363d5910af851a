// The text report of `parperf report`. By default an overview that opens with the answer: the run
// summary, the findings, one line per interval indented by nesting (interval_overview.hpp), the SRC
// points, the loops and the one-sided traffic, each table cut at a length a reader takes in
// (table_rows.hpp). With details, the protocol in the style of the DVM performance analyzer follows:
// the thread list, then for each interval (pre-order) its header, main characteristics, loop
// iterations, user events, comparative characteristics, per-processor rows when asked, and a
// diagnosis.
#pragma once

#include <string>

#include "report/report_model.hpp"
#include "report/table_rows.hpp"

namespace parperf::report {

struct TextOptions {
  // Every interval's full protocol after the overview, whose tables are then not cut
  // (--details; --intervals, --procs and --per-proc ask for it too).
  bool details = false;
  // ANSI colour and bold (text_style.hpp); the command decides (--color, a terminal, NO_COLOR).
  bool colour = false;
  TableRows rows;  // --rows
};

std::string render_text(const Report& report, const TextOptions& options = {});

}  // namespace parperf::report
