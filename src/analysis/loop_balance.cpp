#include "analysis/loop_balance.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/characteristics.hpp"
#include "analysis/seconds.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;

bool is(std::uint32_t kind, SiteKind k) { return kind == static_cast<std::uint32_t>(k); }

// The OpenMP collector marks one "iteration" per chunk it is dispatched.
bool marks_chunks(std::uint32_t kind) {
  return is(kind, SiteKind::omp_loop) || is(kind, SiteKind::omp_distribute) ||
         is(kind, SiteKind::omp_taskloop);
}

format::DurationStats iterations_of(const MergedInterval& interval) {
  format::DurationStats sum;
  for (const LocationStats& l : interval.locations) format::add_durations(sum, l.iterations);
  return sum;
}

// The merged histogram when every location's iterations have one (none from older profiles).
std::optional<format::IterationHistogram> merged_histogram(const MergedInterval& interval) {
  std::optional<format::IterationHistogram> merged;
  for (const LocationStats& l : interval.locations) {
    if (l.iterations_without_histogram > 0) return std::nullopt;
    if (!l.iteration_histogram) continue;
    if (!merged) merged.emplace();
    merged->add(*l.iteration_histogram);
  }
  return merged;
}

// For each interval: 0 for an innermost loop, 1 + the deepest inner loop's for an outer one, -1 for
// an interval that is no loop and holds none (children come after their parents in the tree).
std::vector<int> loop_depths(const IntervalTree& tree, const std::vector<bool>& is_loop) {
  std::vector<int> below(tree.intervals.size(), -1);  // deepest loop depth in the subtree
  std::vector<int> depth(tree.intervals.size(), -1);
  for (std::size_t i = tree.intervals.size(); i-- > 0;) {
    int inner = -1;
    for (std::size_t child : tree.intervals[i].children) inner = std::max(inner, below[child]);
    depth[i] = is_loop[i] ? inner + 1 : -1;
    below[i] = is_loop[i] ? depth[i] : inner;
  }
  return depth;
}

void add_distribution(LoopBalance& loop, const format::DurationStats& it,
                      const format::IterationHistogram& histogram) {
  loop.histogram = histogram;
  // σ² = E[d²] − mean², in ns²; the sum of squares may have been read a moment apart from the sum
  // (a profile flushed while the loop ran), so a tiny negative difference means 0.
  const long double n = static_cast<long double>(it.count);
  const long double mean_ns = static_cast<long double>(it.sum_ns) / n;
  const long double variance = histogram.sum_squares() / n - mean_ns * mean_ns;
  loop.std_dev = variance > 0 ? static_cast<double>(std::sqrt(variance)) / 1e9 : 0.0;
  loop.variation = loop.mean > 0 ? *loop.std_dev / loop.mean : 0.0;
  if (histogram.count() == 0) return;
  IterationPercentiles p;
  p.p50 = histogram_percentile_ns(histogram, 0.50, it.min_ns, it.max_ns) / 1e9;
  p.p90 = histogram_percentile_ns(histogram, 0.90, it.min_ns, it.max_ns) / 1e9;
  p.p99 = histogram_percentile_ns(histogram, 0.99, it.min_ns, it.max_ns) / 1e9;
  loop.percentiles = p;
}

// T_p of every processor that executed the loop: its locations' iteration time (rank unit: the mean
// over its threads in the loop, as processors.hpp averages a process's productive time).
void add_processors(LoopBalance& loop, const IntervalTree& tree, const MergedInterval& interval, Unit unit) {
  for (const ProcessorInput& p : processor_inputs(tree, interval, unit)) {
    ProcessorIterations row{.processor = p.processor, .iterations = 0, .time = 0};
    std::uint64_t ns = 0;
    for (const LocationStats& l : interval.locations) {
      if (l.location.rank != p.rank || (p.thread && l.location.thread != *p.thread)) continue;
      row.iterations += l.iterations.count;
      ns += l.iterations.sum_ns;
    }
    row.time = seconds(ns) / static_cast<double>(std::max<std::uint32_t>(p.process_threads, 1));
    loop.processors.push_back(row);
  }
  if (loop.processors.empty()) return;
  // The comparative form every report uses: on ties, the lowest processor (std::minmax_element
  // would name the highest for the maximum).
  std::vector<ProcessorValue> times;
  for (const ProcessorIterations& p : loop.processors) times.push_back({p.processor, p.time});
  const Extreme spread = compare_values(std::move(times));
  loop.processor_min = spread.min;
  loop.processor_max = spread.max;
  loop.min_processor = spread.min_processor;
  loop.max_processor = spread.max_processor;
  loop.processor_mean = spread.mean;
  const auto n = static_cast<double>(loop.processors.size());
  loop.processor_imbalance = loop.processor_max - loop.processor_min;
  loop.balance_gain = loop.processors.size() > 1 ? n * (loop.processor_max - loop.processor_mean) : 0.0;
}

void add_branches(LoopBalance& loop, const IntervalTree& tree, const MergedInterval& interval) {
  std::uint64_t frequency = 0;
  std::uint64_t total_ns = 0;
  for (std::size_t child : interval.children) {
    const MergedInterval& c = tree.intervals[child];
    if (!is(c.identity.kind, SiteKind::branch)) continue;
    BranchFigures b{.identity = c.identity, .interval = child, .frequency = 0, .total = 0, .mean = 0};
    std::uint64_t ns = 0;
    for (const LocationStats& l : c.locations) {
      b.frequency += l.entries();
      ns += l.sum_ns + l.open_ns;
    }
    b.total = seconds(ns);
    b.mean = b.frequency > 0 ? b.total / static_cast<double>(b.frequency) : 0.0;
    frequency += b.frequency;
    total_ns += ns;
    loop.branches.push_back(std::move(b));
  }
  // Σ F_b · T_b is the branches' total time: the weighted cost is their time per branch entry.
  if (frequency > 0) loop.branch_cost = seconds(total_ns) / static_cast<double>(frequency);
}

LoopBalance analyse_loop(const IntervalTree& tree, std::size_t index, Unit unit, double alpha) {
  const MergedInterval& interval = tree.intervals[index];
  const format::DurationStats it = iterations_of(interval);
  LoopBalance loop;
  loop.interval = index;
  loop.identity = interval.identity;
  loop.chunks = marks_chunks(interval.identity.kind);
  loop.count = it.count;
  loop.total = seconds(it.sum_ns);
  loop.mean = loop.total / static_cast<double>(it.count);
  loop.min = seconds(it.min_ns);
  loop.max = seconds(it.max_ns);
  // Every iteration lies within [min, max], and those two are iterations: the farthest from the
  // mean is one of them.
  loop.degree = std::max(loop.max - loop.mean, loop.mean - loop.min);
  loop.relative_degree = loop.mean > 0 ? loop.degree / loop.mean : 0.0;
  loop.alpha = alpha;
  loop.balanced = loop.degree <= alpha * loop.mean;
  if (const auto histogram = merged_histogram(interval)) add_distribution(loop, it, *histogram);
  add_processors(loop, tree, interval, unit);
  add_branches(loop, tree, interval);
  return loop;
}

}  // namespace

double histogram_percentile_ns(const format::IterationHistogram& histogram, double q, std::uint64_t min_ns,
                               std::uint64_t max_ns) {
  const std::uint64_t n = histogram.count();
  if (n == 0) return 0;
  const double rank = std::clamp(q, 0.0, 1.0) * static_cast<double>(n);
  std::uint64_t below = 0;
  for (std::uint32_t b = 0; b < format::kIterationBuckets; ++b) {
    const std::uint64_t in = histogram.buckets[b];
    if (in == 0) continue;
    if (static_cast<double>(below + in) >= rank || below + in == n) {
      const std::uint64_t upper_edge = format::iteration_bucket_upper_ns(b);
      const double lower = static_cast<double>(std::max(format::iteration_bucket_lower_ns(b), min_ns));
      const double upper = static_cast<double>(upper_edge == 0 ? max_ns : std::min(upper_edge, max_ns));
      const double fraction =
          std::clamp((rank - static_cast<double>(below)) / static_cast<double>(in), 0.0, 1.0);
      return upper > lower ? lower + fraction * (upper - lower) : lower;
    }
    below += in;
  }
  return static_cast<double>(max_ns);
}

std::vector<LoopBalance> loop_balance(const IntervalTree& tree, Unit unit, double alpha) {
  std::vector<bool> is_loop(tree.intervals.size());
  for (std::size_t i = 0; i < tree.intervals.size(); ++i)
    is_loop[i] = iterations_of(tree.intervals[i]).count > 0;
  const std::vector<int> depth = loop_depths(tree, is_loop);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < tree.intervals.size(); ++i)
    if (is_loop[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return depth[a] < depth[b]; });
  std::vector<LoopBalance> loops;
  for (std::size_t i : order) {
    loops.push_back(analyse_loop(tree, i, unit, alpha));
    loops.back().inner_loop_depth = static_cast<std::uint32_t>(depth[i]);
  }
  return loops;
}

}  // namespace parperf::analysis
