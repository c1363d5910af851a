#include "report/src_point_table.hpp"

#include <algorithm>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/rank_list.hpp"
#include "report/interval_kind.hpp"
#include "report/mpi_text.hpp"
#include "report/printable_text.hpp"
#include "report/src_summary.hpp"
#include "report/table_rows.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

// At most this many groups of ranks with the same threads; the JSON lists every location.
constexpr std::size_t kLocationGroups = 4;

std::string threads_text(const std::vector<std::int64_t>& threads) {
  return fmt::format("thread{} {}", threads.size() == 1 ? "" : "s", analysis::rank_list(threads));
}

// Where a point ran, in a line that does not grow with the run: "threads 0-3" in one process;
// "ranks 0-31 (thread 0)" or "ranks 0-2 (threads 0-3), rank 3 (thread 0)" (ranks grouped by their
// threads) in several.
std::string location_list(const Report& report, const std::vector<analysis::Location>& locations) {
  std::map<std::int64_t, std::vector<std::int64_t>> threads_of;  // rank -> its threads, ascending
  for (const analysis::Location& l : locations) threads_of[l.rank].push_back(l.thread);
  if (report.run.processes <= 1) {
    std::vector<std::int64_t> threads;
    for (const auto& [rank, list] : threads_of) threads.insert(threads.end(), list.begin(), list.end());
    return threads_text(threads);
  }
  std::vector<std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>> groups;  // threads, ranks
  for (auto& [rank, threads] : threads_of) {
    std::sort(threads.begin(), threads.end());
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == threads; });
    if (group == groups.end()) group = groups.insert(groups.end(), {threads, {}});
    group->second.push_back(rank);
  }
  std::string text;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    if (i == kLocationGroups) {
      fmt::format_to(std::back_inserter(text), " and {} more groups of ranks (--json lists every location)",
                     groups.size() - i);
      break;
    }
    const auto& [threads, ranks] = groups[i];
    fmt::format_to(std::back_inserter(text), "{}rank{} {} ({})", i == 0 ? "" : ", ",
                   ranks.size() == 1 ? "" : "s", analysis::rank_list(ranks), threads_text(threads));
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
    fmt::format_to(out,
                   "  {:>6.1f}  {:>9}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {}  [in {} \"{}\"; {}{}]\n",
                   share, p.count, format_seconds(p.total), format_seconds(p.wait),
                   format_seconds(p.wait_max), format_seconds(p.sync), format_seconds(p.sync_max),
                   printable(src_point_text(p)), kind_text(p.interval.kind), printable(p.interval.name),
                   location_list(report, p.locations), mpi_point_figures(p));
  }
  render_more_rows(out, report.src_points.size() - shown, "SRC point");
}

}  // namespace parperf::report
