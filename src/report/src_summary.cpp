#include "report/src_summary.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "format/records.hpp"
#include "report/interval_kind.hpp"

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
