// What the event trace adds to the run's main findings (findings.hpp): the root causes of waiting
// (delay costs) as findings of their own, and for the findings whose cause a replay can remove, the
// gain the what-if replay predicts (Finding::replayed_gain) beside the rule of thumb.
//
// Which replay: a finding about an interval (interval_loss, unbalanced_loop, delay_cause) balances
// that interval; a finding about waiting (late partners, late arrivals at collectives and barriers,
// processors finishing apart) balances the interval the delay costs charge most; a finding about
// the cost of MPI calls replays on an ideal network. Others keep their estimate alone.
#pragma once

#include <vector>

#include "analysis/findings.hpp"
#include "analysis/trace/trace_analysis.hpp"

namespace parperf::analysis {

// The largest delay causes (at most `count`, each at least 1 % of all waiting) as delay_cause
// findings; `total_time` is the program's Total time (processor time), for their shares.
std::vector<Finding> delay_cause_findings(const TraceAnalysis& analysis, double total_time,
                                          std::size_t count);

// Fills replayed_gain and replay of the findings a replay applies to.
void add_replayed_gains(std::vector<Finding>& findings, const TraceAnalysis& analysis);

}  // namespace parperf::analysis
