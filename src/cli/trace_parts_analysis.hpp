// The analysis of a traced run by the processes of parperf-report-mpi together (TraceSource::analyse):
// each opens only the trace files of its part of the run, a block of consecutive ranks with about as
// many events as the others' (analysis/trace/graph_part.hpp), and analyses it with the others
// (analyse_traces_by_parts): no process reads or holds the whole run. Every process gets the same
// figures as a serial `parperf report`, to the bit.
//
// To find the parts, each process first opens its share of the files (k, k + K, ...: their indexes,
// every block's checksum), and the processes tell each other every file's rank, event count and
// warnings, or the error that stopped its reading: a damaged file is the same error on every process,
// as it is for a serial report. Each then opens its own part's files again.
//
// What cannot yet be analysed by parts (dependencies that form cycles among hubs only: NotByParts)
// is analysed by the first process alone, from the whole traces, as a serial report analyses it.
#pragma once

#include "analysis/run_data.hpp"
#include "analysis/site_table.hpp"
#include "cli/mpi_part_exchange.hpp"
#include "cli/trace_source.hpp"

namespace parperf::cli {

// Collective over the exchange's processes (those of MPI_COMM_WORLD). A run without traces: nothing.
TracedRun analyse_traces_by_parts(const analysis::RunData& run, const analysis::SiteTable& sites,
                                  MpiPartExchange& exchange);

}  // namespace parperf::cli
