#include "report/text_protocol.hpp"

#include <iterator>

#include <fmt/format.h>

#include "report/dependency_report.hpp"
#include "report/interval_kind.hpp"
#include "report/interval_overview.hpp"
#include "report/loop_balance_text.hpp"
#include "report/mpi_text.hpp"
#include "report/printable_text.hpp"
#include "report/run_endings.hpp"
#include "report/src_point_table.hpp"
#include "report/src_summary.hpp"
#include "report/table_rows.hpp"
#include "report/text_style.hpp"
#include "report/time_format.hpp"
#include "report/traffic_report.hpp"

namespace parperf::report {
namespace {

using analysis::Characteristics;
using analysis::Figure;
using Out = std::back_insert_iterator<std::string>;

constexpr int kLabelWidth = 28;

std::string seconds(double value) { return format_seconds(value) + " s"; }

void render_run(Out out, const RunSummary& run, const TextStyle& style) {
  fmt::format_to(out, "{}\n", style.heading("parperf report: " + printable(run.directory)));
  fmt::format_to(out, "  {:<12}{}\n", "command", run.command.empty() ? "(unknown)" : printable(run.command));
  if (run.processes < run.world_size) {
    fmt::format_to(out, "  {:<12}{} of {} (see the warnings)\n", "processes", run.processes, run.world_size);
  } else {
    fmt::format_to(out, "  {:<12}{}\n", "processes", run.processes);
  }
  fmt::format_to(out, "  {:<12}{}\n", "threads", run.threads);
  fmt::format_to(out, "  {:<12}{}\n", "processor",
                 run.unit == analysis::Unit::rank
                     ? "rank: each process is one processor (--unit thread: each thread)"
                     : "thread: each thread is one processor");
  render_run_endings(out, run);
  render_mpi_run(out, run);
  if (!run.openmp_runtime.empty())
    fmt::format_to(out, "  {:<12}{} (through OMPT)\n", "openmp", printable(run.openmp_runtime));
  if (run.openmp_runtime_substituted)
    fmt::format_to(out,
                   "  {:<12}ran on LLVM libomp instead of GNU libgomp, which the program was built for "
                   "(parperf run --openmp-runtime=native runs it on libgomp, unmeasured)\n",
                   "");
  if (const auto& probes = run.probe_compensation; probes.applied)
    fmt::format_to(
        out,
        "  {:<12}parperf's own probes taken out of the times: {:.0f} ns an interval entry ({:.0f} ns "
        "of it inside the interval), {:.0f} ns an iteration mark; {} in all ({} of the program)\n",
        "probes", probes.entry_ns, probes.inside_ns, probes.mark_ns, format_duration(probes.removed_seconds),
        format_percent(probes.removed_share));
  for (const std::string& warning : run.warnings) fmt::format_to(out, "  warning: {}\n", printable(warning));
}

void render_header(Out out, const ReportInterval& interval, const TextStyle& style) {
  const analysis::IntervalIdentity& id = interval.identity;
  std::string header = fmt::format("== INTERVAL {} \"{}\"", kind_text(id.kind), printable(id.name));
  if (!id.file.empty())
    fmt::format_to(std::back_inserter(header), "  {}", printable(source_text(id.file, id.line, id.end_line)));
  if (!id.function.empty()) fmt::format_to(std::back_inserter(header), "  in {}", printable(id.function));
  if (id.kind != 0) fmt::format_to(std::back_inserter(header), "  value {}", id.value);
  fmt::format_to(std::back_inserter(header), "  level {}  entries {}", interval.level, interval.count);
  fmt::format_to(out, "\n{}", style.heading(header));
  if (interval.open)
    fmt::format_to(out, "  {}", style.alarm("[OPEN: an entry had not ended when the profile was written]"));
  fmt::format_to(out, "\n");
}

void line(Out out, std::string_view label, const std::string& value, int indent = 2) {
  fmt::format_to(out, "{:{}}{:<{}}{}\n", "", indent, label, kLabelWidth - (indent - 2), value);
}

void render_main(Out out, const Characteristics& c) {
  fmt::format_to(out, "  --- main characteristics ---\n");
  line(out, "Parallelization efficiency", fmt::format("{:.3f} ({:.1f}%)", c.efficiency, c.efficiency * 100));
  line(out, "Execution time", seconds(c.execution_time));
  line(out, "Processors", fmt::format("{}", c.processors));
  line(out, "Threads", fmt::format("{}", c.threads));
  line(out, "Total time", seconds(c.total_time));
  line(out, "Productive time",
       fmt::format("{:<12}CPU {}  Sys {}  I/O {}", seconds(c.productive_time), seconds(c.productive_cpu),
                   seconds(c.productive_sys), seconds(c.productive_io)));
  line(out, "Lost time", seconds(c.lost_time));
  line(out, "Insufficient parallelism",
       fmt::format("{:<12}User {}  Sys {}", seconds(c.insufficient_parallelism),
                   seconds(c.insufficient_parallelism_user), seconds(c.insufficient_parallelism_sys)),
       4);
  line(out, "Communication",
       fmt::format("{:<12}Real sync {}  Starts {}", seconds(c.communication),
                   seconds(c.communication_real_sync), seconds(c.communication_starts)),
       4);
  line(out, "Idle time", seconds(c.idle_time), 4);
  if (c.desync != 0) line(out, "Desync time", seconds(c.desync), 4);
  if (c.waiting != 0)
    line(out, "Sync waiting",
         fmt::format("{}  (barriers, locks, critical, ordered, taskwait)", seconds(c.waiting)), 4);
  if (c.load_imbalance != 0) line(out, "Load imbalance", seconds(c.load_imbalance));
  if (c.synchronization != 0) line(out, "Synchronization", seconds(c.synchronization));
  if (c.time_variation != 0) line(out, "Time variation", seconds(c.time_variation));
  if (c.overlap != 0) line(out, "Overlap", seconds(c.overlap));
  if (c.startup != 0 || c.shutdown != 0)
    line(out, "Start-up/shut-down",
         fmt::format(
             "{} / {}  (in MPI_Init, shmem_init / MPI_Finalize, shmem_finalize: not part of Total time)",
             seconds(c.startup), seconds(c.shutdown)));
  line(out, "OS CPU time", fmt::format("user {}  sys {}", seconds(c.os_cpu_user), seconds(c.os_cpu_sys)));
}

void render_iterations_and_events(Out out, const ReportInterval& interval) {
  if (interval.iterations) {
    const analysis::IterationTotals& it = *interval.iterations;
    fmt::format_to(out, "  --- loop iterations ---\n");
    fmt::format_to(out, "  count {}  total {}  mean {}  min {}  max {}\n", it.count, seconds(it.total),
                   seconds(it.mean), seconds(it.min), seconds(it.max));
  }
  if (interval.events.empty()) return;
  fmt::format_to(out, "  --- user events ---\n");
  for (const analysis::EventTotals& e : interval.events) {
    fmt::format_to(out, "  \"{}\"  starts {}  ends {}  atomics {}  total {}  mean {}  min {}  max {}",
                   printable(e.name), e.starts, e.ends, e.atomics, seconds(e.total), seconds(e.mean),
                   seconds(e.min), seconds(e.max));
    if (!e.first_description.empty()) fmt::format_to(out, "  first: \"{}\"", printable(e.first_description));
    fmt::format_to(out, "\n");
  }
}

std::string_view figure_label(Figure figure) {
  switch (figure) {
    case Figure::execution_time:
      return "Execution time";
    case Figure::productive_time:
      return "Productive time";
    case Figure::lost_time:
      return "Lost time";
    case Figure::idle_time:
      return "Idle time";
    case Figure::load_imbalance:
      return "Load imbalance";
    case Figure::insufficient_parallelism:
      return "Insufficient parallelism";
    case Figure::communication:
      return "Communication";
    case Figure::os_cpu_user:
      return "OS CPU user";
    case Figure::os_cpu_sys:
      return "OS CPU sys";
    case Figure::entries:
      return "Entries";
  }
  return "";
}

std::string processor_text(const std::optional<std::int64_t>& processor) {
  return processor ? fmt::format("({})", *processor) : std::string("(-)");
}

void render_comparative(Out out, const analysis::Comparative& comparative) {
  fmt::format_to(out, "  --- comparative characteristics ---\n");
  fmt::format_to(out, "  {:<{}}{:>12} {:>6}  {:>12} {:>6}  {:>12}\n", "", kLabelWidth, "min", "(proc)", "max",
                 "(proc)", "mean");
  for (Figure figure : analysis::kFigures) {
    const analysis::Extreme& e = comparative[figure];
    auto value = [&](double v) {
      return figure == Figure::entries ? fmt::format("{:.6g}", v) : format_seconds(v);
    };
    fmt::format_to(out, "  {:<{}}{:>12} {:>6}  {:>12} {:>6}  {:>12}\n", figure_label(figure), kLabelWidth,
                   value(e.min), processor_text(e.min_processor), value(e.max),
                   processor_text(e.max_processor), value(e.mean));
  }
}

void render_per_processor(Out out, const std::vector<analysis::ProcessorFigures>& rows) {
  fmt::format_to(out, "  --- per-processor characteristics (seconds) ---\n");
  fmt::format_to(out,
                 "  {:>5} {:>5} {:>6} {:>8} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
                 "proc", "rank", "thread", "entries", "execution", "productive", "lost", "idle", "imbalance",
                 "insuff.par.", "comm.", "OS user", "OS sys");
  for (const analysis::ProcessorFigures& p : rows) {
    fmt::format_to(
        out, "  {:>5} {:>5} {:>6} {:>8} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
        p.processor, p.rank, p.thread ? fmt::format("{}", *p.thread) : std::string("-"), p.entries,
        format_seconds(p.execution_time), format_seconds(p.productive_time), format_seconds(p.lost_time),
        format_seconds(p.idle_time), format_seconds(p.load_imbalance),
        format_seconds(p.insufficient_parallelism), format_seconds(p.communication),
        format_seconds(p.os_cpu_user), format_seconds(p.os_cpu_sys));
  }
}

void render_interval(Out out, const ReportInterval& interval, bool show_per_processor,
                     const TextStyle& style) {
  render_header(out, interval, style);
  render_main(out, interval.characteristics);
  render_iterations_and_events(out, interval);
  if (interval.loop_balance) render_loop_balance(out, *interval.loop_balance);
  render_communication(out, interval);
  render_comparative(out, interval.comparative);
  if (show_per_processor) render_per_processor(out, interval.per_processor);
  fmt::format_to(out, "  diagnosis: {}\n", printable(interval.diagnosis));
  for (const ReportInterval& child : interval.children)
    render_interval(out, child, show_per_processor, style);
}

}  // namespace

std::string_view thread_kind_text(format::ThreadKind kind) {
  switch (kind) {
    case format::ThreadKind::initial:
      return "initial thread";
    case format::ThreadKind::openmp_worker:
      return "OpenMP worker";
    default:
      return "thread";
  }
}

void render_threads(Out out, const Report& report) {
  if (report.run.openmp_runtime.empty()) return;
  fmt::format_to(out, "\n--- threads ---\n");
  for (const ThreadLine& t : report.threads) {
    fmt::format_to(out, "  rank {} thread {}  {}{}", t.location.rank, t.location.thread,
                   thread_kind_text(t.kind), t.master ? "  (master)" : "");
    if (t.parked > 0) fmt::format_to(out, "  parked in the pool {}", seconds(t.parked));
    fmt::format_to(out, "\n");
  }
}

// The answer comes first: where the time is lost, worst first, numbered so a reader can refer to them.
void render_findings(Out out, const Report& report, const TextStyle& style) {
  fmt::format_to(out, "\n{}\n", style.heading("== FINDINGS, worst first"));
  if (report.summary.empty())
    fmt::format_to(out, "  none stands out; the intervals below show where the time goes\n");
  for (std::size_t i = 0; i < report.summary.size(); ++i)
    fmt::format_to(out, "  {}. {}\n", i + 1, printable(report.summary[i]));
}

std::string render_text(const Report& report, const TextOptions& options) {
  const TextStyle style(options.colour);
  const TableRows rows = options.details ? TableRows::all() : options.rows;
  std::string text;
  Out out(text);
  render_run(out, report.run, style);
  render_findings(out, report, style);
  if (report.pop) {
    const analysis::Pop* traced = report.traced_pop ? &*report.traced_pop : nullptr;
    fmt::format_to(out, "\n{}\n{}",
                   style.heading(traced ? "== POP EFFICIENCY FACTORS, from the event trace"
                                        : "== POP EFFICIENCY FACTORS, from the profile"),
                   pop_text(*report.pop, traced));
  }
  render_interval_overview(out, report, style, rows.intervals);
  render_src_points(out, report, style, rows.other_tables);
  render_loop_list(out, report.loops, style, rows.other_tables);
  render_traffic(out, report.run.traffic, rows.other_tables);
  if (!options.details) return text;
  render_threads(out, report);
  for (const ReportInterval& interval : report.intervals)
    render_interval(out, interval, report.show_per_processor, style);
  return text;
}

}  // namespace parperf::report
