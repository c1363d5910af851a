// A run's event traces with what they refer to: each rank's decoded trace beside the profile the
// same process wrote (the names of its sites and user events) and the clock correction that puts
// every rank on rank 0's clock. What the timeline, the exports and the wait-state analysis read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/clock_correction.hpp"
#include "analysis/run_data.hpp"
#include "analysis/site_table.hpp"
#include "analysis/trace/timeline_merge.hpp"
#include "format/trace_file.hpp"

namespace parperf::analysis {

struct RankTrace {
  std::int64_t rank = 0;
  std::string file;                                // "trace.0.ppt"
  std::shared_ptr<const format::TraceFile> trace;  // an index: events_of decodes a block's events
  const format::Profile* profile = nullptr;        // the same rank's, in the RunData; null if none
  const SiteTable* sites = nullptr;  // where symbolization put its code sites, when the caller has it
};

struct TraceRun {
  std::vector<RankTrace> ranks;  // by rank
  ClockCorrection clocks;
  // Traces cut short (where they end), ranks with a profile and no trace, events lost.
  std::vector<std::string> warnings;
};

// True when `directory` holds at least one event trace file.
bool has_traces(const std::filesystem::path& directory);

// Reads every trace.<rank>.ppt of the run as an index (format::open_trace_index): the streams decode
// one block at a time, so memory does not grow with the trace's length. Throws LoadError (run_loader.hpp)
// naming the file when one cannot be read or is damaged; a trace cut short is read up to its last complete
// block, and a warning says where it ends.
TraceRun load_traces(const RunData& run);

// The two steps of load_traces, for readers that share the files out (parallel analysis): one trace
// file read as an index (the warnings it gives rise to appended to `warnings`), and the run's traces
// from those read, in any order: sorted by rank, checked for duplicates, joined to their profiles,
// with the ranks that left a profile and no trace named and the clocks corrected.
RankTrace read_rank_trace(const RunData& run, const std::string& name, std::vector<std::string>& warnings);
TraceRun assemble_traces(const RunData& run, std::vector<RankTrace> ranks, std::vector<std::string> warnings);

// Lets the sites of every rank be named by their symbolized file:line (Analysis::sites): the
// operations of the collectors are code addresses until symbolized.
void attach_sites(TraceRun& traces, const SiteTable& sites);

// The trace of `rank` in `traces` (by rank), or null: found by halving, as the wait states and the
// parts of a run analysed by parts ask it for every message.
const RankTrace* rank_trace(const TraceRun& traces, std::int64_t rank);

// How many events the traces hold (their blocks' counts).
std::uint64_t trace_events(const TraceRun& traces);

// The events of every thread of every rank, as streams for merge_timeline.
std::vector<std::unique_ptr<ThreadEvents>> all_thread_streams(const TraceRun& traces);

// The name of a site or user event of a rank's profile ("MPI_Send", "solve"); "site 12" when the
// profile does not have it.
std::string site_name(const RankTrace& rank, std::uint32_t site);
std::string event_name(const RankTrace& rank, std::uint32_t event);

}  // namespace parperf::analysis
