#include "cli/trace_analysis_memory.hpp"

#include <fmt/format.h>

#include <new>

#include "report/printable_text.hpp"

namespace parperf::cli {

std::string trace_memory_message(const std::string& directory, std::uint64_t events) {
  const std::string count = events >= 1'000'000
                                ? fmt::format("{:.3g} million", static_cast<double>(events) * 1e-6)
                                : fmt::format("{}", events);
  return fmt::format(
      "not enough memory to analyse the event traces of {} ({} events; the analysis holds about 100 "
      "bytes an event at its peak): run it where more memory is free",
      report::printable(directory), count);
}

std::optional<analysis::TraceAnalysis> analyse_traces_within_memory(const analysis::TraceRun& traces,
                                                                    unsigned threads,
                                                                    const std::string& directory,
                                                                    std::string& note,
                                                                    const TraceAnalyser& analyse) {
  try {
    return analyse(traces, threads);
  } catch (const std::bad_alloc&) {  // what it held is let go: the profile's report still has room
    note = trace_memory_message(directory, analysis::trace_events(traces)) +
           "; this report is the profile's, without the wait states, critical path, delay costs and "
           "the POP factors only a trace gives";
    return std::nullopt;
  }
}

}  // namespace parperf::cli
