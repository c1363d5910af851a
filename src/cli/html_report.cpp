#include "cli/html_report.hpp"

#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "analysis/locality/locality_ranks.hpp"
#include "cli/predict_options.hpp"
#include "cli/text_file.hpp"
#include "export/export_timeline.hpp"
#include "export/timeline_overview.hpp"
#include "report/html/report_html_page.hpp"
#include "report/printable_text.hpp"

namespace parperf::cli {
namespace {

// The prediction of the sweep (`parperf run --sweep`) this run is one of: its directory holds the
// other runs.
std::optional<analysis::scaling::ScalingStudy> sweep_prediction(const analysis::RunData& run) {
  if (!run.run_info || !run.run_info->sweep) return std::nullopt;
  try {
    PredictOptions options;
    options.directories = {std::filesystem::absolute(run.directory).parent_path().string()};
    return predict_scaling(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf: warning: the page has no prediction: {}\n", report::printable(e.what()));
    return std::nullopt;
  }
}

// The timeline export's overview of the traced run (export/timeline_overview.hpp).
nlohmann::ordered_json timeline_of(const analysis::TraceRun& traces, const analysis::SiteTable& sites) {
  const exports::TimelineNames names(traces, sites);
  exports::TimelineOverview overview;
  exports::export_timeline(traces, names, {}, {&overview});
  return overview.json();
}

}  // namespace

void write_html_report(const std::filesystem::path& file, const HtmlReportInputs& inputs) {
  report::html::HtmlPageInputs page{.report = inputs.report, .profile_pop = inputs.profile_pop};
  page.trace = inputs.trace_analysis;
  if (inputs.traces && inputs.sites) page.timeline = timeline_of(*inputs.traces, *inputs.sites);
  page.locality = inputs.locality;
  if (inputs.locality && !inputs.locality->ranks.empty())
    page.locality_ranks = locality::compare_ranks(inputs.locality->ranks);
  if (inputs.run) page.prediction = sweep_prediction(*inputs.run);
  write_text_file(file, report::html::report_html_page(page));
}

}  // namespace parperf::cli
