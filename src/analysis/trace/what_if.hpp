// `parperf whatif`: the run replayed with changed costs (replay.hpp), against the run as measured
// and as replayed without changes (the model's self-check).
#pragma once

#include <string>
#include <vector>

#include "analysis/trace/replay.hpp"
#include "analysis/trace/trace_analysis.hpp"

namespace parperf::analysis {

// The replay's self-check passes when the unchanged replay is this close to the measured time.
inline constexpr double kReplayTolerance = 0.03;

// One phase of the run (activity_graph.hpp, GraphPhase): its span measured, replayed, predicted.
struct WhatIfPhase {
  std::size_t phase = 1;  // counted from 1
  double measured_ns = 0, replayed_ns = 0, predicted_ns = 0;
  double gain_ns() const { return measured_ns - predicted_ns; }
};

struct WhatIf {
  double measured_ns = 0;
  double replayed_ns = 0;            // without changes, on the fitted network
  double predicted_ns = 0;           // with the changes
  std::vector<std::string> changes;  // in words: "ideal network", "'stage' balanced", ...
  NetworkModel fitted;
  // When the self-check fails: what the replay could not model, in words.
  std::vector<std::string> off_because;
  std::vector<WhatIfPhase> phases;  // empty when recording was never switched
  double gain_ns() const { return measured_ns - predicted_ns; }
  bool self_check_passes() const;
};

// Throws std::invalid_argument naming an interval the changes name and the run does not have.
WhatIf what_if(const TraceAnalysis& analysis, const ReplayChanges& changes);

}  // namespace parperf::analysis
