#include "analysis/interval_findings.hpp"

#include <algorithm>

#include "analysis/finding_thresholds.hpp"

namespace parperf::analysis {
namespace {

constexpr std::size_t kMostIntervals = 3;

bool names_code(const Finding& f) { return f.src_point || f.loop || !f.serial_sections.empty(); }

bool is_loss(FindingKind kind) {
  switch (kind) {
    case FindingKind::idle_within_processes:
    case FindingKind::idle_between_processors:
    case FindingKind::preemption:
    case FindingKind::insufficient_parallelism:
    case FindingKind::communication:
    case FindingKind::desync:
    case FindingKind::openmp_waiting:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<Finding> interval_loss_findings(const IntervalTree& tree,
                                            const std::vector<IntervalAnalysis>& intervals,
                                            const std::vector<Finding>& findings) {
  if (intervals.empty() || std::any_of(findings.begin(), findings.end(), names_code)) return {};
  const double program_total = intervals[0].characteristics.total_time;
  if (program_total <= 0) return {};
  auto lost = [&](std::size_t i) { return intervals[i].characteristics.lost_time; };
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < intervals.size(); ++i)
    if (lost(i) >= kIntervalWorthSaying * program_total && !intervals[i].diagnosis.empty() &&
        is_loss(intervals[i].diagnosis.front().kind))
      candidates.push_back(i);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](std::size_t a, std::size_t b) { return lost(a) > lost(b); });
  std::vector<std::size_t> chosen;
  for (std::size_t i : candidates) {
    if (chosen.size() == kMostIntervals) break;
    const bool child_holds_it =
        std::any_of(tree.intervals[i].children.begin(), tree.intervals[i].children.end(),
                    [&](std::size_t c) { return lost(c) >= 0.5 * lost(i); });
    if (!child_holds_it) chosen.push_back(i);
  }
  std::vector<Finding> out;
  for (std::size_t i : chosen) {
    Finding f = intervals[i].diagnosis.front();  // the interval's largest loss, with its figures
    const double own_share = f.share;
    f.explains = f.kind;
    f.kind = FindingKind::interval_loss;
    f.interval = tree.intervals[i].identity;
    f.share = lost(i) / program_total;
    f.estimated_gain = lost(i);
    f.evidence = {{"lost", lost(i)}, {"share", f.share}, {"interval_share", own_share}};
    if (f.fastest_processor && f.slowest_processor)
      f.evidence.push_back({"execution_spread", f.execution_spread});
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace parperf::analysis
