#include "analysis/interval_totals.hpp"
#include "analysis/seconds.hpp"

#include <algorithm>

namespace parperf::analysis {
namespace {

// Sums stay in integer nanoseconds until the end so that totals are exact.
struct EventSum {
  EventTotals totals;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
};

void add_event(std::vector<EventSum>& sums, const EventFigures& e) {
  auto it =
      std::find_if(sums.begin(), sums.end(), [&](const EventSum& s) { return s.totals.name == e.name; });
  if (it == sums.end()) {
    it = sums.insert(sums.end(), EventSum{});
    it->totals.name = e.name;
    it->totals.description = e.description;
  }
  if (e.ends > 0) {
    it->min_ns = it->totals.ends == 0 ? e.min_ns : std::min(it->min_ns, e.min_ns);
    it->max_ns = it->totals.ends == 0 ? e.max_ns : std::max(it->max_ns, e.max_ns);
  }
  it->totals.starts += e.starts;
  it->totals.ends += e.ends;
  it->totals.atomics += e.atomics;
  it->sum_ns += e.sum_ns;
  if (it->totals.first_description.empty()) it->totals.first_description = e.first_description;
}

}  // namespace

IntervalTotals interval_totals(const MergedInterval& interval) {
  IntervalTotals totals;
  std::uint64_t iteration_count = 0, iteration_sum_ns = 0, iteration_min_ns = 0, iteration_max_ns = 0;
  std::vector<EventSum> events;
  for (const LocationStats& stats : interval.locations) {
    totals.count += stats.entries();
    totals.open = totals.open || stats.open;
    if (stats.iterations > 0) {
      iteration_min_ns =
          iteration_count == 0 ? stats.iteration_min_ns : std::min(iteration_min_ns, stats.iteration_min_ns);
      iteration_max_ns = std::max(iteration_max_ns, stats.iteration_max_ns);
      iteration_count += stats.iterations;
      iteration_sum_ns += stats.iteration_sum_ns;
    }
    for (const EventFigures& e : stats.events) add_event(events, e);
  }
  if (iteration_count > 0) {
    IterationTotals& it = totals.iterations.emplace();
    it.count = iteration_count;
    it.total = seconds(iteration_sum_ns);
    it.mean = it.total / static_cast<double>(iteration_count);
    it.min = seconds(iteration_min_ns);
    it.max = seconds(iteration_max_ns);
  }
  for (EventSum& sum : events) {
    EventTotals& e = sum.totals;
    e.total = seconds(sum.sum_ns);
    e.min = seconds(sum.min_ns);
    e.max = seconds(sum.max_ns);
    e.mean = e.ends > 0 ? e.total / static_cast<double>(e.ends) : 0.0;
    totals.events.push_back(std::move(e));
  }
  return totals;
}

}  // namespace parperf::analysis
