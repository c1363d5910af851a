#include "report/src_point_table.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "report/interval_kind.hpp"
#include "report/mpi_text.hpp"
#include "report/printable_text.hpp"
#include "report/src_summary.hpp"
#include "report/table_rows.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

std::string location_list(const Report& report, const std::vector<analysis::Location>& locations) {
  std::string text;
  for (const analysis::Location& l : locations) {
    if (!text.empty()) text += ',';
    text += report.run.processes > 1 ? fmt::format("{}:{}", l.rank, l.thread) : fmt::format("{}", l.thread);
  }
  return text;
}

}  // namespace

void render_src_points(std::back_insert_iterator<std::string> out, const Report& report,
                       const TextStyle& style, std::size_t max_rows) {
  if (report.src_points.empty()) return;
  fmt::format_to(out, "\n{}\n",
                 style.heading("== SRC POINTS: synchronization and communication sites, most lost time first "
                               "(seconds; for MPI calls lost = real sync + starts)"));
  fmt::format_to(out, "  {:>6}  {:>9}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {}\n", "lost%", "count",
                 "total", "wait", "wait max", "sync", "sync max", "site");
  const std::size_t shown = std::min(report.src_points.size(), max_rows);
  for (const analysis::SrcPoint& p : std::span(report.src_points).first(shown)) {
    const double share = report.program_total_time > 0 ? p.lost() / report.program_total_time * 100 : 0;
    fmt::format_to(
        out, "  {:>6.1f}  {:>9}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {}  [in {} \"{}\"; threads {}{}]\n",
        share, p.count, format_seconds(p.total), format_seconds(p.wait), format_seconds(p.wait_max),
        format_seconds(p.sync), format_seconds(p.sync_max), printable(src_point_text(p)),
        kind_text(p.interval.kind), printable(p.interval.name), location_list(report, p.locations),
        mpi_point_figures(p));
  }
  render_more_rows(out, report.src_points.size() - shown, "SRC point");
}

}  // namespace parperf::report
