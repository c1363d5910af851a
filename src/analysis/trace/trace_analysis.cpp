#include "analysis/trace/trace_analysis.hpp"

namespace parperf::analysis {

TraceAnalysis analyse_traces(const TraceRun& traces) {
  const Communication communication = match_communication(traces);
  TraceAnalysis a;
  a.ranks = traces.ranks.size();
  a.messages = communication.messages.size();
  a.unmatched_sends = communication.unmatched_sends;
  a.unmatched_receives = communication.unmatched_receives;
  a.collectives = communication.collectives.size();
  a.incomplete_collectives = communication.incomplete_collectives;
  a.clock = check_clocks(communication);
  a.waits = find_wait_states(traces, communication);
  a.warnings = traces.warnings;
  a.warnings.insert(a.warnings.end(), traces.clocks.warnings.begin(), traces.clocks.warnings.end());
  return a;
}

}  // namespace parperf::analysis
