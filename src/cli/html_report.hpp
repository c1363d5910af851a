// `parperf report DIR --html FILE`: gathers what the run directory has beyond its profiles (the
// wait states and timeline of an event trace, memory locality, the prediction of the sweep the run
// belongs to) and writes the one self-contained page (report/html).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "analysis/run_data.hpp"
#include "analysis/trace/trace_analysis.hpp"
#include "format/locality_file.hpp"
#include "report/report_model.hpp"

namespace parperf::cli {

struct HtmlReportInputs {
  const analysis::RunData* run = nullptr;  // none for a directory of `parperf locality` results only
  const report::Report& report;
  const analysis::SiteTable* sites = nullptr;
  const analysis::TraceRun* traces = nullptr;  // a run recorded with --trace
  const analysis::TraceAnalysis* trace_analysis = nullptr;
  const format::StoredLocality* locality = nullptr;
};

// Writes the page to `file` (throws naming the file when it cannot); the parts that fail to build
// (a sweep whose other runs cannot be read) are left out with a warning on stderr.
void write_html_report(const std::filesystem::path& file, const HtmlReportInputs& inputs);

}  // namespace parperf::cli
