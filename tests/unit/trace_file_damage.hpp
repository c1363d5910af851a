// Traced runs as files, and damage to their values that keeps every file well-formed: the events of
// a block re-encoded and checksummed, so that only what they say is wrong (a partner, a time, a
// kind, a lost or repeated block). What the trace reader cannot see, the analyses must survive.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "analysis/trace/trace_run.hpp"
#include "format/trace_file.hpp"
#include "unit/analysis_graph_parts_runs.hpp"

namespace parperf::test {

// The file of a decoded trace: its process record, every block's events (uncompressed), every sample
// block, its clock record when it has one.
std::vector<std::uint8_t> encode_trace_file(const format::TraceFile& trace);

// Writes encode_trace_file(trace) to `path`.
void write_trace_file(const std::filesystem::path& path, const format::TraceFile& trace);

// Writes each rank of `run` as `parperf run --trace` leaves it: profile.<rank>.ppf and trace.<rank>.ppt.
void write_traced_run(const std::filesystem::path& directory, const analysis::TraceRun& run);

// One to four changes to `trace`, chosen by `random`: an event's field set to another event's value,
// to a neighbouring one or to an extreme (0, -1, 2^31, 2^63 - 1, ...); an event's time moved by up to
// 5 ms; an event deleted, repeated, swapped with a near one or copied from elsewhere in the trace; a
// block lost, repeated or moved to another thread; the process or clock record's values.
void damage_trace(format::TraceFile& trace, SeededRandom& random);

// One to three changes to the profile beside a trace, which gives its events their meaning: a site's
// kind or name borrowed from another site (an MPI_Send's events then read as a barrier's), a
// communicator's identity or this process's rank in it damaged, the MPI or OpenSHMEM flag flipped.
void damage_profile(format::Profile& profile, SeededRandom& random);

}  // namespace parperf::test
