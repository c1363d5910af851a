// Everything the report says about a traced run's communication: how much of it the trace could
// pair, the clock check and the wait states. One call for `parperf report`; each part is its own
// function (messages.hpp, clock_check.hpp, wait_states.hpp) for the other readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/trace/clock_check.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/wait_states.hpp"

namespace parperf::analysis {

struct TraceAnalysis {
  std::uint64_t ranks = 0;  // with a trace
  std::uint64_t messages = 0;
  std::uint64_t unmatched_sends = 0;
  std::uint64_t unmatched_receives = 0;
  std::uint64_t collectives = 0;  // complete instances
  std::uint64_t incomplete_collectives = 0;
  ClockCheck clock;
  WaitStates waits;
  std::vector<std::string> warnings;  // the traces' (cut short, events lost) and the clocks'
};

TraceAnalysis analyse_traces(const TraceRun& traces);

}  // namespace parperf::analysis
