#include "analysis/trace/trace_analysis.hpp"

#include <utility>

namespace parperf::analysis {

TraceAnalysis analyse_calls(const std::vector<RankCalls>& ranks, const ProfileIndex& profiles,
                            const SiteTable& sites, std::vector<std::string> warnings) {
  const Communication communication = match_calls(ranks, profiles);
  TraceAnalysis a;
  a.ranks = ranks.size();
  a.messages = communication.messages.size();
  a.unmatched_sends = communication.unmatched_sends;
  a.unmatched_receives = communication.unmatched_receives;
  a.collectives = communication.collectives.size();
  a.incomplete_collectives = communication.incomplete_collectives;
  a.clock = check_clocks(communication);
  a.waits = find_wait_states(communication, ranks, profiles, sites);
  a.warnings = std::move(warnings);
  return a;
}

TraceAnalysis analyse_traces(const TraceRun& traces, const SiteTable& sites) {
  std::vector<RankCalls> ranks;
  for (const RankTrace& rank : traces.ranks) ranks.push_back(extract_calls(rank, traces.clocks));
  std::vector<std::string> warnings = traces.warnings;
  warnings.insert(warnings.end(), traces.clocks.warnings.begin(), traces.clocks.warnings.end());
  return analyse_calls(ranks, ProfileIndex(traces), sites, std::move(warnings));
}

}  // namespace parperf::analysis
