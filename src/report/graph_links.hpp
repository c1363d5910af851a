// The activity graph's dependencies as the report counts them (analysis/trace/activity_graph.hpp,
// GraphCounts and GraphUnlinked): one table of their JSON keys and words, read by the text and HTML
// sentence and by the JSON report's `dependencies` key (docs/efficiency-model.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/trace/activity_graph.hpp"

namespace parperf::report {

// {"linked": {"messages": n, ..., "task_waits": n}, "unlinked": {"sends": n, ..., "task_pieces": n}}
nlohmann::ordered_json dependencies_json(const analysis::ActivityGraph& graph);

// "Dependencies linked: 12 messages, 3 task creations, 3 task waits" (the kinds with any), or
// "No dependency between locations was linked".
std::string linked_sentence(const analysis::ActivityGraph& graph);

}  // namespace parperf::report
