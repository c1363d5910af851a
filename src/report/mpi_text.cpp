#include "report/mpi_text.hpp"

#include <fmt/format.h>

#include "analysis/finding_thresholds.hpp"
#include "analysis/mpi_classes.hpp"
#include "analysis/rank_list.hpp"
#include "report/printable_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

// A list of clock lines is worth reading up to a handful of ranks; beyond, the JSON has them all.
constexpr std::size_t kClockLines = 4;

std::string_view thread_level_text(std::int32_t level) {
  switch (level) {
    case 0:
      return "MPI_THREAD_SINGLE";
    case 1:
      return "MPI_THREAD_FUNNELED";
    case 2:
      return "MPI_THREAD_SERIALIZED";
    case 3:
      return "MPI_THREAD_MULTIPLE";
    default:
      return "unknown";
  }
}

std::string bandwidth_text(double bytes_per_second) {
  if (bytes_per_second <= 0) return "not measured";
  if (bytes_per_second >= 1e9) return fmt::format("{:.2f} GB/s", bytes_per_second / 1e9);
  if (bytes_per_second >= 1e6) return fmt::format("{:.2f} MB/s", bytes_per_second / 1e6);
  return fmt::format("{:.0f} B/s", bytes_per_second);
}

std::string offset_text(const std::optional<double>& offset) {
  return offset ? fmt::format("{:+.9f} s", *offset) : std::string("not measured");
}

void render_clocks(TextOut out, const MpiSummary& mpi) {
  std::size_t shown = 0;
  for (const ClockLine& c : mpi.clock) {
    if (c.rank == 0) continue;  // the reference
    if (shown++ == kClockLines) {
      fmt::format_to(out, "  {:<12}... {} more ranks (--json lists them all)\n", "",
                     mpi.clock.size() - 1 - kClockLines);
      break;
    }
    if (!c.corrected) {
      fmt::format_to(out, "  {:<12}rank {}: not corrected (see the warnings)\n", "clock", c.rank);
      continue;
    }
    fmt::format_to(out,
                   "  {:<12}rank {}: offset to rank 0 {} at MPI_Init, {} at MPI_Finalize, drift {:.3g}\n",
                   "clock", c.rank, offset_text(c.offset_init), offset_text(c.offset_finalize), c.drift);
  }
}

}  // namespace

void render_mpi_run(TextOut out, const RunSummary& run) {
  if (run.missing_rank_count > 0) {
    std::string ranks = analysis::rank_list(run.missing_ranks);
    if (run.missing_rank_count > static_cast<std::int64_t>(run.missing_ranks.size()))
      ranks += fmt::format(" and {} more",
                           run.missing_rank_count - static_cast<std::int64_t>(run.missing_ranks.size()));
    fmt::format_to(
        out,
        "  MISSING: profiles missing for ranks {} (of {}): the report covers the others (an aborted, "
        "crashed or killed process leaves no profile)\n",
        ranks, run.world_size);
  }
  if (run.view_rank)
    fmt::format_to(out, "  {:<12}rank {} only: its threads are the processors (--rank)\n", "view",
                   *run.view_rank);
  if (run.slowest_rank && run.slowest_rank->spread >= analysis::kRankSpreadWorthNaming)
    fmt::format_to(out,
                   "  {:<12}rank {} (its program ran {} s, {} more than the fastest; the others wait for it "
                   "at the end)\n",
                   "slowest", run.slowest_rank->rank, format_seconds(run.slowest_rank->execution_time),
                   format_duration(run.slowest_rank->spread));
  if (!run.mpi) return;
  const MpiSummary& mpi = *run.mpi;
  fmt::format_to(out, "  {:<12}{}\n", "mpi",
                 mpi.library.empty() ? "(library unknown)" : printable(mpi.library));
  fmt::format_to(out, "  {:<12}{}, latency {}, bandwidth {}\n", "", thread_level_text(mpi.thread_level),
                 format_duration(mpi.latency), bandwidth_text(mpi.bandwidth));
  render_clocks(out, mpi);
}

void render_communication(TextOut out, const ReportInterval& interval) {
  if (interval.communication_classes.empty()) return;
  fmt::format_to(out, "  --- communication (seconds, over processors) ---\n");
  fmt::format_to(out, "  {:<15}{:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>14}\n", "class", "count",
                 "time", "real sync", "starts", "synchron.", "time var.", "overlap", "bytes");
  for (const analysis::CommunicationClassFigures& r : interval.communication_classes)
    fmt::format_to(out, "  {:<15}{:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>14}\n",
                   analysis::mpi_class_key(r.mpi_class), r.count, format_seconds(r.time),
                   format_seconds(r.real_sync), format_seconds(r.starts), format_seconds(r.synchronization),
                   format_seconds(r.time_variation), format_seconds(r.overlap), r.bytes);
}

std::string mpi_point_figures(const analysis::SrcPoint& p) {
  const auto cls = analysis::mpi_class(p.identity.kind);
  if (!cls) return "";
  if (*cls == analysis::MpiClass::management) return "; management, not communication";
  std::string text =
      fmt::format("; real sync {}, starts {}", format_duration(p.wait), format_duration(p.starts));
  if (p.synchronization > 0) text += fmt::format(", synchronization {}", format_duration(p.synchronization));
  if (p.time_variation > 0) text += fmt::format(", time variation {}", format_duration(p.time_variation));
  if (p.overlap > 0) text += fmt::format(", overlap {}", format_duration(p.overlap));
  return text;
}

}  // namespace parperf::report
