#include "report/interval_overview.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/interval_kind.hpp"
#include "report/printable_text.hpp"
#include "report/src_summary.hpp"
#include "report/table_rows.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using Out = std::back_insert_iterator<std::string>;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// One interval of the shown tree, in pre-order.
struct Row {
  const ReportInterval* interval = nullptr;
  std::size_t depth = 0;       // nesting in the shown tree (--intervals may lift intervals up)
  std::size_t parent = kNone;  // index of the parent's row
};

void flatten(const ReportInterval& interval, std::size_t depth, std::size_t parent, std::vector<Row>& rows) {
  const std::size_t me = rows.size();
  rows.push_back({&interval, depth, parent});
  for (const ReportInterval& child : interval.children) flatten(child, depth + 1, me, rows);
}

// The rows to show: all of them when they fit, else the most expensive with their ancestors. The
// walk stops at the first interval that no longer fits, so a shown row never costs less than a
// hidden one that is not an ancestor of a shown row.
std::vector<bool> rows_to_show(const std::vector<Row>& rows, std::size_t max_rows) {
  std::vector<bool> shown(rows.size(), rows.size() <= max_rows);
  if (rows.size() <= max_rows) return shown;
  std::vector<std::size_t> by_cost(rows.size());
  std::iota(by_cost.begin(), by_cost.end(), std::size_t{0});
  std::stable_sort(by_cost.begin(), by_cost.end(), [&](std::size_t a, std::size_t b) {
    const analysis::Characteristics& x = rows[a].interval->characteristics;
    const analysis::Characteristics& y = rows[b].interval->characteristics;
    return std::pair(x.total_time, x.lost_time) > std::pair(y.total_time, y.lost_time);
  });
  std::size_t count = 0;
  for (std::size_t candidate : by_cost) {
    std::vector<std::size_t> added;
    for (std::size_t r = candidate; r != kNone && !shown[r]; r = rows[r].parent) added.push_back(r);
    if (count + added.size() > max_rows) break;
    for (std::size_t r : added) shown[r] = true;
    count += added.size();
  }
  return shown;
}

// The deepest --level at which every interval fits the table, when cutting by level would show
// more of the tree's top than the table does; empty otherwise.
std::string level_hint(const std::vector<Row>& rows, std::size_t max_rows) {
  std::uint32_t deepest = 0;
  for (const Row& row : rows) deepest = std::max(deepest, row.interval->level);
  std::optional<std::uint32_t> fitting;
  for (std::uint32_t level = 1; level < deepest; ++level) {
    const auto within =
        std::count_if(rows.begin(), rows.end(), [&](const Row& row) { return row.interval->level <= level; });
    if (static_cast<std::size_t>(within) > max_rows) break;
    fitting = level;
  }
  if (!fitting) return {};
  std::string hint = ", --level ";
  hint += std::to_string(*fitting);
  hint += " the top ";
  hint += std::to_string(*fitting + 1);
  hint += " levels";
  return hint;
}

std::string interval_label(const ReportInterval& interval, std::size_t depth, const TextStyle& style) {
  const analysis::IntervalIdentity& id = interval.identity;
  std::string label(2 * depth, ' ');
  label += kind_text(id.kind);
  label += " \"";
  label += printable(id.name);
  label += '"';
  if (!id.file.empty()) {
    label += "  ";
    label += style.source(printable(source_text(id.file, id.line, id.end_line)));
  }
  if (interval.open) {
    label += "  ";
    label += style.alarm("OPEN");
  }
  return label;
}

// A time with its unit, and a plain 0 that the eye skips.
std::string duration_cell(double seconds) {
  return seconds == 0 ? std::string("0") : format_duration(seconds);
}

void render_row(Out out, const Row& row, const TextStyle& style) {
  const analysis::Characteristics& c = row.interval->characteristics;
  const std::string efficiency = fmt::format("{:>9.1f}%", c.efficiency * 100);
  fmt::format_to(out, "  {:>10}  {}  {:>10}  {:<24}  {:>9}  {}\n", duration_cell(c.execution_time),
                 style.efficiency(efficiency, c.efficiency), duration_cell(c.lost_time), largest_loss_text(c),
                 row.interval->count, interval_label(*row.interval, row.depth, style));
}

}  // namespace

std::string largest_loss_text(const analysis::Characteristics& c) {
  const std::array<std::pair<std::string_view, double>, 5> parts = {{
      {"idle", c.idle_time},
      {"insufficient par.", c.insufficient_parallelism},
      {"communication", c.communication},
      {"desync", c.desync},
      {"waiting", c.waiting},
  }};
  const auto largest = std::max_element(parts.begin(), parts.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
  if (largest->second <= 0) return "-";
  std::string text(largest->first);
  text += ' ';
  text += format_duration(largest->second);
  return text;
}

void render_interval_overview(Out out, const Report& report, const TextStyle& style, std::size_t max_rows) {
  fmt::format_to(
      out, "\n{}\n",
      style.heading("== INTERVALS, nested ones indented; the most expensive when cut (--details: each "
                    "one in full)"));
  if (report.intervals.empty()) {
    fmt::format_to(out, "  No interval matches the selection.\n");
    return;
  }
  fmt::format_to(out, "  {:>10}  {:>10}  {:>10}  {:<24}  {:>9}  {}\n", "execution", "efficiency", "lost",
                 "largest loss", "entries", "interval");
  std::vector<Row> rows;
  for (const ReportInterval& root : report.intervals) flatten(root, 0, kNone, rows);
  const std::vector<bool> shown = rows_to_show(rows, max_rows);
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (shown[r]) render_row(out, rows[r], style);
  const auto hidden = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), false));
  render_more_rows(out, hidden, "interval", level_hint(rows, max_rows));
}

}  // namespace parperf::report
