// The flow arrows of a run's matched communication (analysis/trace/messages.hpp): each message
// from the start of its send to the end of the call it arrived in, and each blocking collective
// instance from the member that arrived last, the one the others waited for, to every other
// member's departure; each put from its caller to the target's memory, each get back from it.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/messages.hpp"
#include "export/timeline_names.hpp"
#include "export/timeline_slices.hpp"

namespace parperf::exports {

struct CommunicationFlows {
  std::vector<Flow> flows;
  // Puts and gets whose target process has no trace (its file is missing, or the target recorded is
  // not a process of the run): an arrow to it would draw a process the run does not show, so they
  // have none.
  std::size_t untraced_targets = 0;
};

CommunicationFlows communication_flows(const analysis::Communication& communication,
                                       const TimelineNames& names);

// Moves the flows' ends to their repaired times (analysis/trace/clock_repair.hpp), as the events.
void repair_flows(std::vector<Flow>& flows, const analysis::ClockRepair& repair);

}  // namespace parperf::exports
