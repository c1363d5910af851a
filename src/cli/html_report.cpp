#include "cli/html_report.hpp"

#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "analysis/locality/locality_ranks.hpp"
#include "cli/predict_options.hpp"
#include "cli/text_file.hpp"
#include "export/export_timeline.hpp"
#include "export/timeline_overview.hpp"
#include "report/html/page_data.hpp"
#include "report/locality/locality_ranks.hpp"
#include "report/locality/locality_svg.hpp"
#include "report/locality/locality_text.hpp"
#include "report/prediction_svg.hpp"
#include "report/prediction_text.hpp"
#include "report/printable_text.hpp"
#include "report/wait_states_report.hpp"

namespace parperf::cli {
namespace {

report::html::PageSection locality_section(const format::StoredLocality& stored) {
  report::html::PageSection section;
  if (stored.single) {
    section.text = report::locality_text(*stored.single);
    section.pictures = {
        {"Spatial against temporal locality per function", report::scatter_svg(*stored.single)},
        {"Reuse distances", report::reuse_histogram_svg(*stored.single)},
        {"Locality of the busiest functions", report::locality_square_svg(*stored.single)}};
  }
  if (!stored.ranks.empty()) {
    if (!section.text.empty()) section.text += "\n";
    section.text += report::locality_ranks_text(stored.ranks, locality::compare_ranks(stored.ranks), "");
  }
  return section;
}

// The prediction of the sweep (`parperf run --sweep`) this run is one of: its directory holds the
// other runs.
std::optional<report::html::PageSection> sweep_prediction(const analysis::RunData& run) {
  if (!run.run_info || !run.run_info->sweep) return std::nullopt;
  try {
    PredictOptions options;
    options.directories = {std::filesystem::absolute(run.directory).parent_path().string()};
    const auto study = predict_scaling(options);
    return report::html::PageSection{report::prediction_text(study),
                                     {{"Speedup, measured and predicted", report::prediction_svg(study)}}};
  } catch (const std::exception& e) {
    fmt::print(stderr, "parperf: warning: the page has no prediction: {}\n", report::printable(e.what()));
    return std::nullopt;
  }
}

nlohmann::ordered_json timeline_of(const analysis::TraceRun& traces, const analysis::SiteTable& sites) {
  const exports::TimelineNames names(traces, sites);
  exports::TimelineOverview overview;
  exports::export_timeline(traces, names, {}, {&overview});
  return overview.json();
}

}  // namespace

void write_html_report(const std::filesystem::path& file, const HtmlReportInputs& inputs) {
  report::html::PageExtras extras;
  if (inputs.trace_analysis)
    extras.wait_states = report::html::PageSection{report::wait_states_text(*inputs.trace_analysis), {}};
  if (inputs.traces && inputs.sites) extras.timeline = timeline_of(*inputs.traces, *inputs.sites);
  if (inputs.locality && !inputs.locality->empty()) extras.locality = locality_section(*inputs.locality);
  if (inputs.run) extras.prediction = sweep_prediction(*inputs.run);
  write_text_file(file, report::html::report_page(inputs.report, extras));
}

}  // namespace parperf::cli
