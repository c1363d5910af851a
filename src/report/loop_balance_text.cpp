#include "report/loop_balance_text.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "report/interval_kind.hpp"
#include "report/printable_text.hpp"
#include "report/src_summary.hpp"
#include "report/table_rows.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::LoopBalance;
using Out = std::back_insert_iterator<std::string>;

std::string seconds(double value) { return format_seconds(value) + " s"; }

const char* marks(const LoopBalance& loop) { return loop.chunks ? "chunks" : "iterations"; }

std::string loop_name(const LoopBalance& loop) {
  return fmt::format("the {} \"{}\" at {}", kind_text(loop.identity.kind), loop.identity.name,
                     source_text(loop.identity.file, loop.identity.line, loop.identity.end_line));
}

std::string degree_text(const LoopBalance& loop) {
  return fmt::format("D = {}, {:.2f} of the mean {}", format_duration(loop.degree), loop.relative_degree,
                     format_duration(loop.mean));
}

}  // namespace

void render_loop_balance(Out out, const LoopBalance& loop) {
  fmt::format_to(out, "  --- loop balance ({}) ---\n", marks(loop));
  fmt::format_to(out, "  {:<28}{}  mean {}  min {}  max {}\n", marks(loop), loop.count, seconds(loop.mean),
                 seconds(loop.min), seconds(loop.max));
  fmt::format_to(out, "  {:<28}{}  D/mean {:.3f}  {} (alpha {:.3g}: balanced when D <= alpha x mean)\n",
                 "Balance degree D", seconds(loop.degree), loop.relative_degree,
                 loop.balanced ? "balanced" : "UNBALANCED", loop.alpha);
  if (loop.std_dev)
    fmt::format_to(out, "  {:<28}{}  coefficient of variation {:.3f}\n", "Standard deviation",
                   seconds(*loop.std_dev), loop.variation.value_or(0));
  if (loop.percentiles)
    fmt::format_to(out, "  {:<28}p50 {}  p90 {}  p99 {}  (from a histogram of 2 buckets per octave)\n",
                   "Percentiles", seconds(loop.percentiles->p50), seconds(loop.percentiles->p90),
                   seconds(loop.percentiles->p99));
  if (!loop.processors.empty()) {
    fmt::format_to(out, "  {:<28}{}  (max {} on processor {}, min {} on processor {}, mean {})\n",
                   "Processor imbalance", seconds(loop.processor_imbalance), seconds(loop.processor_max),
                   loop.max_processor.value_or(-1), seconds(loop.processor_min),
                   loop.min_processor.value_or(-1), seconds(loop.processor_mean));
    if (loop.processors.size() > 1)
      fmt::format_to(out, "  {:<28}{}  (processor time a perfect balance would save)\n", "Balance gain",
                     seconds(loop.balance_gain));
  }
  if (loop.inner_loop_depth > 0)
    fmt::format_to(out, "  note: its {} include the inner loops' whole time ({} level{} of loops inside)\n",
                   marks(loop), loop.inner_loop_depth, loop.inner_loop_depth > 1 ? "s" : "");
  if (loop.branches.empty()) return;
  fmt::format_to(out, "  {:<28}{}  (weighted by frequency: sum F x T / sum F)\n", "Branch cost",
                 seconds(loop.branch_cost.value_or(0)));
  for (const analysis::BranchFigures& b : loop.branches)
    fmt::format_to(out, "    branch \"{}\" {}  F {}  T {}  total {}\n", printable(b.identity.name),
                   printable(source_text(b.identity.file, b.identity.line)), b.frequency, seconds(b.mean),
                   seconds(b.total));
}

void render_loop_list(Out out, const std::vector<LoopBalance>& loops, const TextStyle& style,
                      std::size_t max_rows) {
  if (loops.empty()) return;
  fmt::format_to(out, "\n{}\n",
                 style.heading("== LOOP BALANCE, innermost loops first (an outer loop's iterations include "
                               "its inner loops)"));
  fmt::format_to(out, "  {:>9}  {:>10}  {:>10}  {:>7}  {:>10}  {:>10}  {}\n", "count", "mean", "D", "D/mean",
                 "balanced", "proc.imb.", "loop");
  const std::size_t shown = std::min(loops.size(), max_rows);
  for (const LoopBalance& loop : std::span(loops).first(shown))
    fmt::format_to(out, "  {:>9}  {:>10}  {:>10}  {:>7.3f}  {:>10}  {:>10}  {}{}\n", loop.count,
                   format_seconds(loop.mean), format_seconds(loop.degree), loop.relative_degree,
                   loop.balanced ? "yes" : "NO", format_seconds(loop.processor_imbalance),
                   printable(loop_name(loop)), loop.chunks ? " (chunks)" : "");
  render_more_rows(out, loops.size() - shown, "loop");
}

std::string unbalanced_loop_text(const analysis::Finding& f) {
  if (!f.loop) return "";
  const LoopBalance& loop = *f.loop;
  std::string text =
      loop.balanced
          ? fmt::format("the {} of {} are balanced ({})", marks(loop), loop_name(loop), degree_text(loop))
          : fmt::format("{} of {} take {} to {} ({}; balanced would be D <= {:.3g} x mean)", marks(loop),
                        loop_name(loop), format_duration(loop.min), format_duration(loop.max),
                        degree_text(loop), loop.alpha);
  if (loop.processors.size() > 1) {
    text += fmt::format(
        "; its {} processors spend {} to {} in them: schedule(dynamic) or a cost-aware partition would save "
        "~{} of processor time",
        loop.processors.size(), format_duration(loop.processor_min), format_duration(loop.processor_max),
        format_duration(f.estimated_gain));
    if (f.share > 0) text += fmt::format(" ({} of total)", format_percent(f.share));
    return text;
  }
  return text +
         "; one processor runs them all, so balancing saves nothing as it runs: when it is parallelised, "
         "partition the iterations by cost rather than by count (or schedule(dynamic))";
}

}  // namespace parperf::report
