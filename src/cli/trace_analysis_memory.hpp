// The trace analysis when the machine has the memory for it. Analysing a long trace holds about 70 to
// 100 bytes an event at its peak (docs/efficiency-model.md): where that is more than the machine (or
// the job's limit) gives, `parperf report` still prints the profile's report, with a note of what only
// the trace would add, rather than nothing; `parperf whatif`, which is the trace analysis, says so.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "analysis/trace/trace_analysis.hpp"

namespace parperf::cli {

using TraceAnalyser = std::function<analysis::TraceAnalysis(const analysis::TraceRun&, unsigned)>;

// The analysis of `traces` on `threads`, or none when it ran out of memory: then `note` says so (in
// the report's terms, with the traces' number of events and `directory`).
std::optional<analysis::TraceAnalysis> analyse_traces_within_memory(
    const analysis::TraceRun& traces, unsigned threads, const std::string& directory, std::string& note,
    const TraceAnalyser& analyse = analysis::analyse_traces);

// "not enough memory to analyse the event traces of DIR (N events, ...)".
std::string trace_memory_message(const std::string& directory, std::uint64_t events);

}  // namespace parperf::cli
