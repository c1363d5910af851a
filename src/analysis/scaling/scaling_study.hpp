// A scaling study: runs of one program at several processor counts (run_sample.hpp) modelled for
// `parperf predict`. Runs with the same problem parameters form a group; in each group the program's
// time, each lost-time component of the program and every interval's time are fitted on their own
// (scaling_prediction.hpp), so the study says not only how the program scales but which loss grows
// and which interval is to blame.
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "analysis/scaling/run_sample.hpp"
#include "analysis/scaling/scaling_prediction.hpp"

namespace parperf::analysis::scaling {

struct StudyOptions {
  ScalingOptions fit;
  std::size_t top_intervals = 5;  // intervals kept in `growing`
  // An interval (or loss) smaller than this share of the program's time at every count is not
  // ranked: tiny costs fit noise, and a noisy fit of nothing is no scalability bug.
  double negligible_share = 0.01;
};

struct MeasuredRun {
  std::string directory;
  double processors = 1;
  std::int64_t repetition = 0;
  double time = 0;  // the program's execution time, s
};

struct LossPrediction {
  LossComponent component{};
  ScalingFit fit;  // processor-seconds
};

struct IntervalPrediction {
  IntervalIdentity identity;
  std::uint32_t level = 0;
  ScalingFit fit;
  // The interval's predicted time at the largest predicted count over its time at the largest
  // measured one: above 1, it grows with p and will dominate; a perfectly scaling interval falls
  // like the measured count over the predicted one.
  double growth = 0;
  double share_at_max = 0;  // of the program's predicted time at the largest predicted count
};

struct StudyGroup {
  std::map<std::string, std::string> parameters;  // what the runs of the group share
  std::string unit;                               // "threads", "ranks", ... as the runs say
  std::vector<MeasuredRun> runs;                  // by processors, then repetition
  ScalingFit program;
  std::vector<LossPrediction> losses;       // the components that were ever non-negligible
  std::vector<IntervalPrediction> growing;  // fastest-growing first, at most top_intervals
};

struct ScalingStudy {
  std::vector<StudyGroup> groups;     // by parameters
  std::vector<std::string> warnings;  // about the runs as a whole (mixed units, ...)
};

ScalingStudy study_scaling(std::span<const RunSample> runs, const StudyOptions& options = {});

std::string_view loss_component_name(LossComponent component);  // "communication", ...

}  // namespace parperf::analysis::scaling
