#include "report/src_summary.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "analysis/mpi_classes.hpp"
#include "format/records.hpp"
#include "report/interval_kind.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;

constexpr double kWorthSaying = 0.01;  // findings below 1 % of the thread time are noise
constexpr std::size_t kMostPoints = 3;

bool is(std::uint32_t kind, SiteKind k) { return kind == static_cast<std::uint32_t>(k); }

std::string percent(double share) { return fmt::format("{:.0f} %", share * 100); }

std::string why(const analysis::SrcPoint& p, double share) {
  const auto kind = p.identity.kind;
  if (is(kind, SiteKind::omp_implicit_barrier) || is(kind, SiteKind::omp_join_barrier)) {
    const bool loop = is(p.identity.construct_kind, SiteKind::omp_loop) ||
                      (p.combined_construct && is(p.combined_construct->kind, SiteKind::omp_loop));
    std::string text =
        p.imbalance > 0
            ? fmt::format(": the threads' work there is unbalanced (max/mean {:.2f})", p.imbalance)
            : ": the threads arrive at different times";
    if (loop) text += fmt::format("; a dynamic or guided schedule would recover up to {}", percent(share));
    return text;
  }
  if (is(kind, SiteKind::omp_critical))
    return fmt::format(
        ": {} entries waited {:.3g} ms on average to enter; shorten the section or use atomics or "
        "reductions",
        p.count, p.count ? p.wait / static_cast<double>(p.count) * 1e3 : 0.0);
  if (is(kind, SiteKind::omp_lock) || is(kind, SiteKind::omp_nest_lock))
    return fmt::format(": threads contend for the lock ({} acquisitions)", p.count);
  if (is(kind, SiteKind::omp_ordered)) return ": threads wait for their ordered turn";
  if (is(kind, SiteKind::omp_barrier) || is(kind, SiteKind::omp_implementation_barrier))
    return ": threads arrive at the barrier at different times (unbalanced work before it)";
  if (is(kind, SiteKind::omp_taskwait) || is(kind, SiteKind::omp_taskgroup))
    return ": threads wait for tasks to complete";
  return "";
}

bool is_collective(analysis::MpiClass c) {
  using analysis::MpiClass;
  return c == MpiClass::barrier || c == MpiClass::broadcast || c == MpiClass::reduction ||
         c == MpiClass::all_to_all || c == MpiClass::gather_scatter;
}

// Whom a call waiting for its partner waits for, by the kind of call.
std::string_view waits_for(std::uint32_t kind) {
  if (is(kind, SiteKind::mpi_recv) || is(kind, SiteKind::mpi_probe)) return "for a late sender";
  if (is(kind, SiteKind::mpi_send)) return "for a late receiver";
  if (is(kind, SiteKind::mpi_sendrecv)) return "for its partner";
  if (is(kind, SiteKind::mpi_wait) || is(kind, SiteKind::mpi_test))
    return "for its non-blocking communication to complete";
  if (is(kind, SiteKind::mpi_one_sided) || is(kind, SiteKind::mpi_one_sided_sync))
    return "for the other side of the one-sided access";
  return "for its partners";
}

std::string partner_text(const analysis::RankAtSite& r) {
  if (r.partner_min < 0 || r.partner_max < r.partner_min) return "";
  if (r.partner_min == r.partner_max) return fmt::format(" (rank {})", r.partner_min);
  return fmt::format(" (ranks {}-{})", r.partner_min, r.partner_max);
}

// A finding about an MPI call site, in the terms of the communication pattern behind the loss.
std::string mpi_finding(const analysis::SrcPoint& p, analysis::MpiClass cls, double share) {
  const std::string call = src_point_text(p);
  const std::string lost = fmt::format("{} of processor time is lost there", percent(share));
  if (is_collective(cls) && p.synchronization > 0 && p.arrival_spread > 0)
    return fmt::format(
        "ranks arrive at the {} up to {:.3f} s apart: load imbalance before it (synchronization "
        "{:.3f} s); {}",
        call, p.arrival_spread, p.synchronization, lost);
  const analysis::RankAtSite* worst = nullptr;
  for (const analysis::RankAtSite& r : p.ranks)
    if (!worst || r.real_sync > worst->real_sync) worst = &r;
  if (worst && worst->real_sync > 0 && p.wait >= p.starts)
    return fmt::format("rank {} waits {:.3f} s in {} {}{}; {}", worst->rank, worst->real_sync, call,
                       waits_for(p.identity.kind), partner_text(*worst), lost);
  return fmt::format(
      "{} of processor time is lost in {}: {} in the calls themselves, {} waiting for partners",
      percent(share), call, format_duration(p.starts), format_duration(p.wait));
}

}  // namespace

std::string source_text(const std::string& file, std::int64_t line, std::int64_t end_line) {
  if (file.empty()) return "unknown site";
  const std::string name = std::filesystem::path(file).filename().string();
  if (line <= 0) return name;
  if (end_line > line) return fmt::format("{} ({}:{})", name, line, end_line);
  return fmt::format("{}:{}", name, line);
}

std::string src_point_text(const analysis::SrcPoint& p) {
  const auto kind = p.identity.kind;
  const std::string where = source_text(p.identity.file, p.identity.line);
  if (is(kind, SiteKind::omp_implicit_barrier) && p.identity.construct_kind != 0)
    return fmt::format("the implicit barrier of the {} at {}", kind_text(p.identity.construct_kind), where);
  if (is(kind, SiteKind::omp_join_barrier) && p.combined_construct)
    return fmt::format("the implicit barrier of the {} at {} (the end of its parallel region)",
                       kind_text(p.combined_construct->kind),
                       source_text(p.combined_construct->file, p.combined_construct->line));
  if (is(kind, SiteKind::omp_join_barrier))
    return fmt::format("the implicit barrier at the end of the parallel region at {}", where);
  if (is(kind, SiteKind::omp_critical)) return fmt::format("the critical section at {}", where);
  // MPI sites are named after the function called: "MPI_Recv at late_sender.c:25".
  if (format::is_mpi_kind(kind) && !p.identity.name.empty())
    return fmt::format("{} at {}", p.identity.name, where);
  return fmt::format("the {} at {}", kind_text(kind), where);
}

std::vector<std::string> summarize_losses(const analysis::Characteristics& program,
                                          const std::vector<analysis::SrcPoint>& points) {
  std::vector<std::string> lines;
  if (program.total_time <= 0) return lines;
  for (const analysis::SrcPoint& p : points) {
    if (lines.size() == kMostPoints) break;
    const double share = p.lost() / program.total_time;
    if (share < kWorthSaying) break;  // sorted: the rest lose less
    if (const auto cls = analysis::mpi_class(p.identity.kind)) {
      lines.push_back(mpi_finding(p, *cls, share));
      continue;
    }
    lines.push_back(
        fmt::format("{} of thread time is lost at {}{}", percent(share), src_point_text(p), why(p, share)));
  }
  const double sequential = program.insufficient_parallelism / program.total_time;
  if (sequential >= kWorthSaying)
    lines.push_back(
        fmt::format("{} of thread time is lost to insufficient parallelism: code that runs on one thread "
                    "while the others wait (outside parallel regions), or that every thread repeats "
                    "(inside a parallel region, outside work-sharing constructs)",
                    percent(sequential)));
  return lines;
}

}  // namespace parperf::report
