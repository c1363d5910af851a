// The MPI parts of the text protocol: the run header's MPI lines and an interval's COMMUNICATION
// table (text_protocol.hpp renders the rest).
#pragma once

#include <iterator>
#include <string>

#include "report/report_model.hpp"

namespace parperf::report {

using TextOut = std::back_insert_iterator<std::string>;

// Header lines: missing ranks (prominent), the rank view, the slowest rank, the MPI library and
// link, the clock corrections. Nothing for what the run does not have.
void render_mpi_run(TextOut out, const RunSummary& run);

// "--- communication ---": one row per communication class of the interval's MPI calls; nothing
// when it has none.
void render_communication(TextOut out, const ReportInterval& interval);

// The MPI figures of an SRC point that is an MPI call site, for the end of its line:
// "; real sync 200 ms, starts 10 ms, synchronization 300 ms"; empty for other sites.
std::string mpi_point_figures(const analysis::SrcPoint& point);

}  // namespace parperf::report
