#include "report/diff_text.hpp"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "report/diff_figures.hpp"
#include "report/interval_kind.hpp"
#include "report/printable_text.hpp"
#include "report/src_summary.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::ComparedFigure;
using analysis::IntervalChange;
using analysis::IntervalStatus;
using Out = std::back_insert_iterator<std::string>;

constexpr std::size_t kLabelWidth = 16;

// A change with its sign, always: "+0.030000", "-0.150000", "0".
std::string signed_seconds(double value) {
  std::string text = value > 0 ? "+" : "";
  text += format_seconds(value);
  return text;
}

std::string command_text(const std::vector<std::string>& command) {
  std::string text;
  for (const std::string& word : command) {
    if (!text.empty()) text += ' ';
    text += printable(word);
  }
  return text;
}

// "changed" intervals say by how much; the others what happened to them.
std::string relative_text(const IntervalChange& change) {
  if (change.status == IntervalStatus::added) return "new";
  if (change.status == IntervalStatus::vanished) return "vanished";
  if (change.a->execution_time <= 0) return "-";
  return fmt::format("{:+.0f}%", (change.b->execution_time / change.a->execution_time - 1) * 100);
}

std::string time_of(const std::optional<analysis::Characteristics>& c) {
  return c ? format_seconds(c->execution_time) : "-";
}

std::string efficiency_of(const std::optional<analysis::Characteristics>& c) {
  return c ? fmt::format("{:.3f}", c->efficiency) : "-";
}

std::string lost_text(const IntervalChange& change) {
  std::string text = signed_seconds(*change.delta(ComparedFigure::lost_time));
  if (const auto& largest = change.largest_lost_change)
    text +=
        fmt::format(" ({} {})", compared_figure_words(largest->component), signed_seconds(largest->delta));
  return text;
}

// One step of a path: its name (the kind when it has none) and its value when it has one.
std::string step_text(const analysis::IntervalStep& step) {
  std::string text = step.name.empty() ? std::string(kind_text(step.kind)) : printable(step.name);
  if (step.value != 0) {
    text += '=';
    text += std::to_string(step.value);
  }
  return text;
}

// "solve/sweep/level=2  solver.cpp:30": the path from the program, and where the interval is.
std::string path_text(const IntervalChange& change) {
  std::string text;
  for (const analysis::IntervalStep& step : change.path) {
    if (!text.empty()) text += '/';
    text += step_text(step);
  }
  const analysis::IntervalStep& leaf = *change.step();
  if (!leaf.file.empty()) {
    text += "  ";
    text += printable(source_text(leaf.file, leaf.line));
  }
  return text;
}

// "1 thread", "8 ranks".
std::string processors_text(const analysis::Characteristics& program, analysis::Unit unit) {
  std::string text = fmt::format("{} {}", program.processors, analysis::unit_name(unit));
  if (program.processors != 1) text += 's';
  return text;
}

void render_run(Out out, std::string_view label, const analysis::RunSummary& run) {
  fmt::format_to(out, "  {:<{}}{}", label, kLabelWidth, printable(run.directory));
  if (!run.command.empty()) fmt::format_to(out, "  ({})", command_text(run.command));
  fmt::format_to(out, "\n");
}

void render_header(Out out, const analysis::RunComparison& comparison) {
  const analysis::Characteristics& a = comparison.a.program;
  const analysis::Characteristics& b = comparison.b.program;
  const analysis::ProgramChange& program = comparison.program;
  fmt::format_to(out, "parperf diff: how B differs from A\n");
  render_run(out, "A", comparison.a);
  render_run(out, "B", comparison.b);
  fmt::format_to(out, "  {:<{}}{} -> {}", "processors", kLabelWidth, processors_text(a, comparison.a.unit),
                 processors_text(b, comparison.b.unit));
  if (program.processors_differ && program.scaling_efficiency)
    fmt::format_to(out,
                   "  (different counts: scaling efficiency {:.2f}, the speedup over the processor ratio)",
                   *program.scaling_efficiency);
  fmt::format_to(out, "\n  {:<{}}{} s -> {} s  ({} s", "execution time", kLabelWidth,
                 format_seconds(a.execution_time), format_seconds(b.execution_time),
                 signed_seconds(b.execution_time - a.execution_time));
  if (a.execution_time > 0)
    fmt::format_to(out, ", {:+.0f}%", (b.execution_time / a.execution_time - 1) * 100);
  fmt::format_to(out, ")");
  if (program.speedup) fmt::format_to(out, "  speedup {:.2f}", *program.speedup);
  fmt::format_to(out, "\n  {:<{}}{:.3f} -> {:.3f}  ({:+.3f})\n", "efficiency", kLabelWidth, a.efficiency,
                 b.efficiency, program.efficiency_delta);
  fmt::format_to(out, "  {:<{}}{} s -> {} s  ({} s)", "lost time", kLabelWidth, format_seconds(a.lost_time),
                 format_seconds(b.lost_time), signed_seconds(b.lost_time - a.lost_time));
  std::string separator = ": ";
  for (const analysis::ComponentChange& change : program.lost_changes) {
    if (change.delta == 0) continue;
    fmt::format_to(out, "{}{} {} s", separator, compared_figure_words(change.component),
                   signed_seconds(change.delta));
    separator = ", ";
  }
  fmt::format_to(out, "\n");
  for (const std::string& warning : comparison.warnings)
    fmt::format_to(out, "  warning: {}\n", printable(warning));
}

void render_row(Out out, const IntervalChange& change) {
  fmt::format_to(out, "  {:>12}  {:>11} -> {:<11}  {:>8}  {:>5} -> {:<5}  {:<36}  {}\n",
                 signed_seconds(*change.delta(ComparedFigure::execution_time)), time_of(change.a),
                 time_of(change.b), relative_text(change), efficiency_of(change.a), efficiency_of(change.b),
                 lost_text(change), path_text(change));
}

}  // namespace

std::string diff_text(const analysis::RunComparison& comparison, const DiffTextOptions& options) {
  std::string text;
  Out out(text);
  render_header(out, comparison);
  // The program is the header; the table holds the intervals below it.
  const std::size_t count = comparison.intervals.empty() ? 0 : comparison.intervals.size() - 1;
  if (count == 0) {
    fmt::format_to(out, "\nNo intervals below the program in either run.\n");
    return text;
  }
  fmt::format_to(out, "\nIntervals, largest change of execution time first (A -> B, seconds):\n");
  fmt::format_to(out, "  {:>12}  {:^26}  {:>8}  {:^14}  {:<36}  {}\n", "change", "execution time", "%",
                 "efficiency", "lost time change (largest part)", "interval");
  const std::size_t shown = options.all ? count : std::min(count, options.max_rows);
  for (std::size_t i = 1; i <= shown; ++i) render_row(out, comparison.intervals[i]);
  if (shown < count)
    fmt::format_to(out, "  ... {} more (parperf diff --all shows every interval)\n", count - shown);
  return text;
}

}  // namespace parperf::report
