// One rank's trace cut down to its operations (MPI calls, OpenMP synchronizations), its intervals'
// begins and ends, the switches of recording (the phases) and its call-path samples: what the
// communication, wait-state and dependency analyses and the functions on the critical path read
// (activity_graph.hpp, path_functions.hpp), without user events and iterations, as the bytes of a
// trace file of its own. Parallel trace analysis: each analysis process reads and decodes its share of
// the trace files, which is most of the work, and sends these to the first process, which analyses
// them as if it had read the files itself (the analysis reads nothing else, so it finds the same).
#pragma once

#include <cstdint>
#include <vector>

#include "format/trace_file.hpp"

namespace parperf::analysis {

// The same process and clock records, each thread's operations in their order, in blocks numbered
// from 0 per thread (compressed), and the sample blocks as they were, in their order. A trace cut short stays
// without its clock record (its file is complete otherwise: read_rank_trace's warnings say where the original
// ends).
std::vector<std::uint8_t> operations_trace(const format::TraceFile& trace);

}  // namespace parperf::analysis
