// What `parperf report DIR --html FILE` shows, every part already computed: the command loads the run,
// calls the analyses once (the profile's, `analyse_traces`, the timeline export, the locality
// comparison, the sweep's prediction) and hands their results here; report_html_page.hpp draws them.
// Nothing in src/report/html reads a file or computes a figure.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/locality/locality_ranks.hpp"
#include "analysis/scaling/scaling_study.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "format/locality_file.hpp"
#include "report/report_model.hpp"

namespace parperf::report::html {

struct HtmlPageInputs {
  const Report& report;
  // The POP factors the profile gives (analysis::profile_pop_factors); the traced ones are in `trace`.
  analysis::PopFactors profile_pop{};
  const analysis::TraceAnalysis* trace = nullptr;  // a run recorded with --trace
  // The traced run's slices, as export/timeline_overview.hpp computes them.
  std::optional<nlohmann::ordered_json> timeline{};
  const format::StoredLocality* locality = nullptr;             // `parperf locality` results in the directory
  std::optional<locality::RankComparison> locality_ranks{};     // compare_ranks of locality->ranks, if any
  std::optional<analysis::scaling::ScalingStudy> prediction{};  // of the sweep the run is one of
};

}  // namespace parperf::report::html
