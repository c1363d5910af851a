#include "analysis/probe_compensation.hpp"

#include <algorithm>
#include <vector>

namespace parperf::analysis {
namespace {

LocationStats* stats_of(MergedInterval& interval, const Location& location) {
  auto it = std::lower_bound(interval.locations.begin(), interval.locations.end(), location,
                             [](const LocationStats& s, const Location& l) { return s.location < l; });
  return it != interval.locations.end() && it->location == location ? &*it : nullptr;
}

std::uint64_t less(std::uint64_t value, std::uint64_t taken) { return value > taken ? value - taken : 0; }

// Takes `ns` out of a location's time in an interval: from its completed entries first, then from
// an entry still open; min and max lose an entry's share.
void take_time(LocationStats& s, std::uint64_t ns) {
  const std::uint64_t entries = s.entries();
  if (entries == 0 || ns == 0) return;
  const std::uint64_t from_completed = std::min(ns, s.sum_ns);
  s.sum_ns -= from_completed;
  s.open_ns = less(s.open_ns, ns - from_completed);
  const std::uint64_t per_entry = ns / entries;
  s.min_ns = less(s.min_ns, per_entry);
  s.max_ns = less(s.max_ns, per_entry);
}

void take_iterations(format::DurationStats& iterations, std::uint64_t ns, std::uint64_t per_iteration) {
  if (iterations.count == 0) return;
  iterations.sum_ns = less(iterations.sum_ns, ns);
  iterations.min_ns = less(iterations.min_ns, per_iteration);
  iterations.max_ns = less(iterations.max_ns, per_iteration);
}

// One location's compensation over the whole tree; returns what it took from the program interval
// and that interval's time before.
std::pair<std::uint64_t, std::uint64_t> compensate_location(IntervalTree& tree, const Location& location,
                                                            const ProbeCosts& c) {
  const std::size_t n = tree.intervals.size();
  std::vector<std::uint64_t> entries(n, 0), nested(n, 0), marks(n, 0);
  std::pair<std::uint64_t, std::uint64_t> program{0, 0};
  // Parents precede their children: backwards, every child is done before its parent.
  for (std::size_t i = n; i-- > 0;) {
    MergedInterval& interval = tree.intervals[i];
    LocationStats* s = stats_of(interval, location);
    for (const std::size_t child : interval.children) {
      nested[i] += entries[child] + nested[child];
      marks[i] += marks[child];
    }
    if (!s) continue;
    entries[i] = s->entries();
    const std::uint64_t own_marks = s->iterations.count;
    marks[i] += own_marks;
    const std::uint64_t taken = entries[i] * c.inside_ns + nested[i] * c.entry_ns + marks[i] * c.mark_ns;
    if (i == 0) program = {std::min(taken, s->exec_ns()), s->exec_ns()};
    take_time(*s, taken);
    if (own_marks > 0)
      take_iterations(s->iterations, own_marks * c.mark_ns + nested[i] * c.entry_ns,
                      c.mark_ns + nested[i] * c.entry_ns / own_marks);
  }
  return program;
}

}  // namespace

std::map<Location, ProbeCosts> probe_costs_of(const std::vector<format::Profile>& profiles) {
  std::map<Location, ProbeCosts> costs;
  for (const format::Profile& profile : profiles)
    for (const format::ProbeCostsRecord& r : profile.probe_costs)
      costs[{profile.process.rank, r.thread}] = {r.entry_ns, r.inside_ns, r.mark_ns};
  return costs;
}

ProbeCompensation compensate_probe_costs(IntervalTree& tree, const std::map<Location, ProbeCosts>& costs) {
  ProbeCompensation summary;
  std::uint64_t removed = 0, measured = 0;
  for (const auto& [location, c] : costs) {
    if (c.entry_ns == 0 && c.mark_ns == 0) continue;  // not calibrated
    const auto [taken, before] = compensate_location(tree, location, c);
    removed += taken;
    measured += before;
    ++summary.locations;
    summary.entry_ns += static_cast<double>(c.entry_ns);
    summary.inside_ns += static_cast<double>(c.inside_ns);
    summary.mark_ns += static_cast<double>(c.mark_ns);
  }
  if (summary.locations == 0) return summary;
  summary.applied = true;
  const auto count = static_cast<double>(summary.locations);
  summary.entry_ns /= count;
  summary.inside_ns /= count;
  summary.mark_ns /= count;
  summary.removed_seconds = static_cast<double>(removed) * 1e-9;
  summary.removed_share = measured ? static_cast<double>(removed) / static_cast<double>(measured) : 0;
  return summary;
}

}  // namespace parperf::analysis
