// Aggregation in the runtime: what one thread's interval tree holds after real API calls.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "parperf/parperf.h"
#include "parperf/parperf.hpp"
#include "support/clock_tolerance.hpp"
#include "support/machine_load.hpp"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

// The runtime's durations come from the TSC at a rate calibrated over the run, the test's from
// CLOCK_MONOTONIC: each bound allows the calibration's error (support/clock_tolerance.hpp). The
// upper bounds are what the test's stopwatch around the API calls saw, plus kClockReadSlack ms for
// reading two different clocks; the lower bounds are the busy-waits' lengths.
using test::reported_at_least;
using test::reported_at_most;
constexpr double kClockReadSlack = 0.05;

TEST(RuntimeAggregation, EntriesAccumulateCountSumMinAndMax) {
  static parperf_site site = PARPERF_SITE_INIT("agg_basic", PARPERF_KIND_USER);
  std::vector<double> measured;
  for (int duration : {2, 6, 4}) {
    Stopwatch watch;
    parperf_interval_begin(&site, 0);
    busy_for_ms(duration);
    parperf_interval_end(&site);
    measured.push_back(watch.elapsed_ms());
  }
  const auto profile = flush_and_read();
  const auto* node = find_node(profile, main_thread(profile), {"agg_basic"});
  ASSERT_NE(node, nullptr) << "interval agg_basic missing from the profile";
  EXPECT_EQ(node->count, 3u);
  // Each entry lasts at least its busy-wait and at most what the stopwatch around the API calls saw
  // (on a loaded machine the thread may be preempted inside the bracket but outside the interval).
  EXPECT_GE(ms(node->sum_ns), reported_at_least(12.0)) << "three entries of 2+6+4 ms";
  EXPECT_LE(ms(node->sum_ns), reported_at_most(measured[0] + measured[1] + measured[2]) + kClockReadSlack);
  EXPECT_GE(ms(node->min_ns), reported_at_least(2.0)) << "shortest entry";
  EXPECT_LE(ms(node->min_ns),
            reported_at_most(*std::min_element(measured.begin(), measured.end())) + kClockReadSlack);
  EXPECT_GE(ms(node->max_ns), reported_at_least(6.0)) << "longest entry";
  EXPECT_LE(ms(node->max_ns),
            reported_at_most(*std::max_element(measured.begin(), measured.end())) + kClockReadSlack);
  EXPECT_FALSE(node->open());
  EXPECT_GT(node->last_begin_ns, 0u);
}

TEST(RuntimeAggregation, SameSiteWithDifferentValuesIsADifferentInterval) {
  for (int step = 0; step < 6; ++step) {
    PARPERF_SCOPE_VALUE("agg_value", step % 3);
    PARPERF_SCOPE("agg_value_inner");
  }
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  for (std::int64_t value = 0; value < 3; ++value) {
    const auto* node = find_node(profile, thread, {"agg_value"}, {value});
    ASSERT_NE(node, nullptr) << "no interval agg_value with value " << value;
    EXPECT_EQ(node->count, 2u) << "value " << value << " was entered twice";
    const auto* inner = find_node(profile, thread, {"agg_value", "agg_value_inner"}, {value});
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->count, 2u);
  }
  EXPECT_EQ(find_node(profile, thread, {"agg_value"}, {3}), nullptr);
}

TEST(RuntimeAggregation, NestedTimeIsIncludedInTheParent) {
  // Each stopwatch is read after its scope has closed, so it holds the whole interval.
  double child_ms = 0;
  const Stopwatch parent_watch;
  {
    PARPERF_SCOPE("agg_parent");
    busy_for_ms(3);
    const Stopwatch child_watch;
    {
      PARPERF_SCOPE("agg_child");
      busy_for_ms(5);
    }
    child_ms = child_watch.elapsed_ms();
  }
  const double parent_ms = parent_watch.elapsed_ms();
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* parent = find_node(profile, thread, {"agg_parent"});
  const auto* child = find_node(profile, thread, {"agg_parent", "agg_child"});
  ASSERT_TRUE(parent && child);
  EXPECT_GE(ms(child->sum_ns), reported_at_least(5.0));
  EXPECT_LE(ms(child->sum_ns), reported_at_most(child_ms) + kClockReadSlack);
  EXPECT_GE(ms(parent->sum_ns), reported_at_least(8.0));
  EXPECT_LE(ms(parent->sum_ns), reported_at_most(parent_ms) + kClockReadSlack);
  EXPECT_GT(parent->sum_ns, child->sum_ns + 2500000) << "the parent holds the child's 5 ms plus its own 3 ms";
}

TEST(RuntimeAggregation, LoopIterationMarksAreTimed) {
  static parperf_site loop = PARPERF_SITE_INIT("agg_loop", PARPERF_KIND_SEQUENTIAL_LOOP);
  // The test's clock just before and just after each iteration mark and the interval's end (the
  // sixth): iteration i lasts at most after[i + 1] - before[i], whatever preempts the thread between
  // the marks.
  std::vector<double> before, after;
  before.reserve(6);
  after.reserve(6);
  const Stopwatch watch;
  parperf_interval_begin(&loop, 0);
  for (int i = 0; i < 5; ++i) {
    before.push_back(watch.elapsed_ms());
    parperf_loop_iteration();
    after.push_back(watch.elapsed_ms());
    busy_for_ms(i == 4 ? 4 : 1);
  }
  before.push_back(watch.elapsed_ms());
  parperf_interval_end(&loop);
  after.push_back(watch.elapsed_ms());
  std::vector<double> longest;
  for (std::size_t i = 0; i < 5; ++i) longest.push_back(after[i + 1] - before[i]);

  const auto profile = flush_and_read();
  const auto* node = find_node(profile, main_thread(profile), {"agg_loop"});
  ASSERT_NE(node, nullptr);
  EXPECT_EQ(node->iterations.count, 5u) << "the interval's end closes the fifth iteration";
  EXPECT_GE(ms(node->iterations.sum_ns), reported_at_least(8.0)) << "iterations of 1+1+1+1+4 ms";
  EXPECT_LE(ms(node->iterations.sum_ns), reported_at_most(after[5] - before[0]) + kClockReadSlack);
  EXPECT_GE(ms(node->iterations.min_ns), reported_at_least(1.0));
  EXPECT_LE(ms(node->iterations.min_ns),
            reported_at_most(*std::min_element(longest.begin(), longest.end())) + kClockReadSlack);
  EXPECT_GE(ms(node->iterations.max_ns), reported_at_least(4.0));
  EXPECT_LE(ms(node->iterations.max_ns),
            reported_at_most(*std::max_element(longest.begin(), longest.end())) + kClockReadSlack);
  for (const auto& s : profile.sites)
    if (s.name == "agg_loop") {
      EXPECT_EQ(s.kind, static_cast<std::uint32_t>(PARPERF_KIND_SEQUENTIAL_LOOP));
    }
  // Their distribution (format 3.3): every iteration in one bucket, and a sum of squares between
  // what equal iterations would give (n x mean^2) and n x max^2.
  ASSERT_TRUE(node->iteration_histogram) << "a node with iterations has a distribution";
  const auto& histogram = *node->iteration_histogram;
  EXPECT_EQ(histogram.count(), 5u);
  const long double n = 5, mean = static_cast<long double>(node->iterations.sum_ns) / n;
  const long double max = static_cast<long double>(node->iterations.max_ns);
  EXPECT_GE(histogram.sum_squares(), n * mean * mean * 0.999L);
  EXPECT_LE(histogram.sum_squares(), n * max * max * 1.001L);
  EXPECT_EQ(histogram.buckets[format::iteration_bucket(node->iterations.max_ns)] > 0 ||
                histogram.buckets[format::iteration_bucket(node->iterations.max_ns) - 1] > 0 ||
                histogram.buckets[format::iteration_bucket(node->iterations.max_ns) + 1] > 0,
            true)
      << "the longest iteration is counted in its bucket (or, within 1% of an edge, a neighbour)";
  EXPECT_FALSE(main_thread(profile).nodes[0].iteration_histogram) << "the program has no iterations";
}

TEST(RuntimeAggregation, RunTimeNamesAreInternedIntoOneIntervalPerName) {
  for (int i = 0; i < 10; ++i) {
    const std::string name = "agg_dynamic_" + std::to_string(i % 2);
    parperf_interval_begin_named(name.c_str(), PARPERF_KIND_USER, "generated.c", 7, 0);
    parperf_interval_end_named(name.c_str());
  }
  const char buffer[] = "agg_lengthXXXX";  // not terminated where the name ends
  parperf_interval_begin_n(buffer, 10, PARPERF_KIND_USER, nullptr, 0, 0, 0);
  parperf_interval_end_n(buffer, 10);
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  for (const char* name : {"agg_dynamic_0", "agg_dynamic_1"}) {
    const auto* node = find_node(profile, thread, {name});
    ASSERT_NE(node, nullptr) << name;
    EXPECT_EQ(node->count, 5u) << name;
  }
  ASSERT_NE(find_node(profile, thread, {"agg_length"}), nullptr);
  for (const auto& s : profile.sites)
    if (s.name == "agg_dynamic_0") {
      EXPECT_EQ(s.file, "generated.c");
      EXPECT_EQ(s.line, 7);
    }
}

TEST(RuntimeAggregation, UserEventsCountPairsAndAtomicsAndKeepTheFirstDescription) {
  const unsigned send = parperf_event_create("agg_send", "%d bytes to %s");
  const unsigned tick = parperf_event_create("agg_tick", "tick %d");
  ASSERT_NE(send, 0u);
  double events_ms = 0;
  {
    PARPERF_SCOPE("agg_events");
    Stopwatch watch;
    for (int i = 0; i < 3; ++i) {
      parperf_event_start(send, 64 * (i + 1), "peer");
      busy_for_ms(1);
      parperf_event_end(send);
    }
    events_ms = watch.elapsed_ms();
    parperf_event_atomic(tick, 1);
    parperf_event_atomic(tick, 2);
  }
  const auto profile = flush_and_read();
  const auto* node = find_node(profile, main_thread(profile), {"agg_events"});
  ASSERT_NE(node, nullptr);
  ASSERT_EQ(node->events.size(), 2u);
  const auto& s = node->events[0].event == send ? node->events[0] : node->events[1];
  const auto& t = node->events[0].event == send ? node->events[1] : node->events[0];
  EXPECT_EQ(s.starts, 3u);
  EXPECT_EQ(s.count, 3u);
  EXPECT_GE(ms(s.sum_ns), reported_at_least(3.0));
  EXPECT_LE(ms(s.sum_ns), reported_at_most(events_ms) + kClockReadSlack);
  EXPECT_EQ(s.first_description, "64 bytes to peer");
  EXPECT_EQ(t.atomics, 2u);
  EXPECT_EQ(t.first_description, "tick 1");
  bool described = false;
  for (const auto& e : profile.events)
    if (e.id == send) described = e.name == "agg_send" && e.description == "%d bytes to %s";
  EXPECT_TRUE(described);
}

TEST(RuntimeAggregation, OsCpuTimeSeparatesComputingFromSleeping) {
  const test::MachineLoad load;
  double computing_cpu = 0, sleeping_wall = 0;
  {
    Stopwatch watch;
    PARPERF_SCOPE("agg_computing");
    busy_for_ms(40);
    computing_cpu = watch.thread_cpu_ms();
  }
  {
    const Stopwatch watch;  // read after the scope has closed, so it holds the whole interval
    {
      PARPERF_SCOPE("agg_sleeping");
      usleep(40000);
    }
    sleeping_wall = watch.elapsed_ms();
  }
  const auto profile = flush_and_read();
  const auto& thread = main_thread(profile);
  const auto* computing = find_node(profile, thread, {"agg_computing"});
  const auto* sleeping = find_node(profile, thread, {"agg_sleeping"});
  ASSERT_TRUE(computing && sleeping);
  // Reads are at most PARPERF_CPU_SAMPLE_US (100 us) apart from the boundaries, and the kernel's
  // user/system split is tick-based: allow a few milliseconds.
  EXPECT_NEAR(ms(computing->os_user_self_ns + computing->os_sys_self_ns), computing_cpu, 4.0)
      << "the CPU time the thread itself measured in the busy loop";
  EXPECT_GT(computing_cpu, 5.0) << "test premise: the 40 ms busy loop got CPU time; " << load.describe();
  EXPECT_LT(ms(sleeping->os_user_self_ns + sleeping->os_sys_self_ns), 4.0) << "sleeping uses almost no CPU";
  EXPECT_GE(ms(sleeping->sum_ns), reported_at_least(40.0)) << "but its wall-clock time is all there";
  EXPECT_LE(ms(sleeping->sum_ns), reported_at_most(sleeping_wall) + kClockReadSlack);
}

TEST(RuntimeAggregation, AnOpenIntervalIsCountedUpToTheFlush) {
  static parperf_site site = PARPERF_SITE_INIT("agg_open", PARPERF_KIND_USER);
  parperf_interval_begin(&site, 0);
  busy_for_ms(10);
  const auto profile = flush_and_read();
  parperf_interval_end(&site);
  const auto* node = find_node(profile, main_thread(profile), {"agg_open"});
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->open());
  EXPECT_EQ(node->count, 0u);
  EXPECT_GE(ms(node->open_ns), 9.5);
  EXPECT_EQ(profile.process.end_reason, format::EndReason::flush);
  EXPECT_TRUE(main_thread(profile).nodes[0].open()) << "the program interval is open while the program runs";
}

TEST(RuntimeAggregation, TheProfileDoesNotGrowWithRepetitions) {
  auto run_steps = [](int steps) {
    for (int step = 0; step < steps; ++step) {
      PARPERF_SEQUENTIAL_LOOP("agg_size_loop");
      parperf::loop_iteration();
      PARPERF_SCOPE_VALUE("agg_size_step", step % 4);
    }
  };
  // The file's size, less the 16-byte records of the loop's non-empty histogram buckets: new times
  // may fill more of its 48 buckets, a bounded growth (docs/format.md, IterationBucketRecord).
  auto size_without_buckets = [] {
    const auto profile = flush_and_read();
    std::uintmax_t buckets = 0;
    for (const auto& thread : profile.threads)
      for (const auto& node : thread.nodes)
        if (node.iteration_histogram)
          for (std::uint64_t count : node.iteration_histogram->buckets) buckets += count > 0 ? 1 : 0;
    return std::filesystem::file_size(std::filesystem::path(std::getenv("PARPERF_DIR")) / "profile.0.ppf") -
           buckets * 16;
  };
  run_steps(100);
  const auto after_hundred = size_without_buckets();
  run_steps(100000);
  const auto after_hundred_thousand = size_without_buckets();
  EXPECT_EQ(after_hundred_thousand, after_hundred)
      << "statistics are aggregated per interval: 1000x the entries must not add a byte";
}

}  // namespace
}  // namespace parperf::testing
