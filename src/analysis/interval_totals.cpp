#include "analysis/interval_totals.hpp"
#include "analysis/seconds.hpp"

#include <algorithm>

namespace parperf::analysis {
namespace {

// Sums stay in integer nanoseconds until the end so that totals are exact.
struct EventSum {
  EventTotals totals;
  format::DurationStats pairs;
};

void add_event(std::vector<EventSum>& sums, const EventFigures& e) {
  auto it =
      std::find_if(sums.begin(), sums.end(), [&](const EventSum& s) { return s.totals.name == e.name; });
  if (it == sums.end()) {
    it = sums.insert(sums.end(), EventSum{});
    it->totals.name = e.name;
    it->totals.description = e.description;
  }
  format::add_durations(it->pairs, e);
  it->totals.starts += e.starts;
  it->totals.atomics += e.atomics;
  if (it->totals.first_description.empty()) it->totals.first_description = e.first_description;
}

}  // namespace

IntervalTotals interval_totals(const MergedInterval& interval) {
  IntervalTotals totals;
  format::DurationStats iterations;
  std::vector<EventSum> events;
  for (const LocationStats& stats : interval.locations) {
    totals.count += stats.entries();
    totals.open = totals.open || stats.open;
    format::add_durations(iterations, stats.iterations);
    for (const EventFigures& e : stats.events) add_event(events, e);
  }
  if (iterations.count > 0) {
    IterationTotals& it = totals.iterations.emplace();
    it.count = iterations.count;
    it.total = seconds(iterations.sum_ns);
    it.mean = it.total / static_cast<double>(iterations.count);
    it.min = seconds(iterations.min_ns);
    it.max = seconds(iterations.max_ns);
  }
  for (EventSum& sum : events) {
    EventTotals& e = sum.totals;
    e.ends = sum.pairs.count;
    e.total = seconds(sum.pairs.sum_ns);
    e.min = seconds(sum.pairs.min_ns);
    e.max = seconds(sum.pairs.max_ns);
    e.mean = e.ends > 0 ? e.total / static_cast<double>(e.ends) : 0.0;
    totals.events.push_back(std::move(e));
  }
  return totals;
}

}  // namespace parperf::analysis
