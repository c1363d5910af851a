// `parperf report DIR --html FILE`: computes what the page needs beyond the report and the trace
// analysis the command already has (the timeline export's overview, the locality comparison of the
// ranks, the prediction of the sweep the run belongs to) and hands it all to the page's renderer
// (report/html/report_html_page.hpp), then writes the file. The page is assembled in src/report only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "analysis/run_data.hpp"
#include "analysis/trace/pop_factors.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "format/locality_file.hpp"
#include "report/report_model.hpp"

namespace parperf::cli {

struct HtmlReportInputs {
  const analysis::RunData* run = nullptr;  // none for a directory of `parperf locality` results only
  const report::Report& report;
  analysis::PopFactors profile_pop{};  // analysis::profile_pop_factors of the report's program
  const analysis::SiteTable* sites = nullptr;
  const analysis::TraceRun* traces = nullptr;  // a run recorded with --trace
  const analysis::TraceAnalysis* trace_analysis = nullptr;
  const format::StoredLocality* locality = nullptr;
};

// Writes the page to `file` (throws naming the file when it cannot); the parts that fail to build
// (a sweep whose other runs cannot be read) are left out with a warning on stderr.
void write_html_report(const std::filesystem::path& file, const HtmlReportInputs& inputs);

}  // namespace parperf::cli
