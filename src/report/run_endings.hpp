// How the ranks of a run ended, in the text report's header: one "ended" line per way of ending
// ("all 32 ranks: exit", "ranks 0-2, 4-31: exit", "rank 3 (profile.3.ppf): signal 11 (SIGSEGV)")
// and one alarm per way of ending early (CRASHED, ABORTED, ...), so that a run of thousands of
// ranks still takes a few lines. The JSON lists every rank's ending (`run.end_reasons`).
#pragma once

#include <iterator>
#include <string>

#include "report/report_model.hpp"

namespace parperf::report {

void render_run_endings(std::back_insert_iterator<std::string> out, const RunSummary& run);

}  // namespace parperf::report
