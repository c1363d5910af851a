// Scenario: the event trace of an OpenMP program (sync_constructs.c, built with clang: libomp) run
// under `parperf run --trace`. Ground truth from the program: in the part `critical` each of the
// region's 2 threads enters `critical` 20 times and holds it 2 ms; in the part `lock` the same with
// omp_set_lock.
//
// Expected: each thread's parallel regions are in the trace, nested, and its 20 critical and 20 lock
// operations too, each at least the 2 ms it held; and the trace agrees with the profile of the same
// run: per site, as many operations and the same total time (the two are recorded from the same
// measurement, so they differ only by the tick-to-ns rounding of each operation).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_run.hpp"
#include "format/site_kinds.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

struct SiteTotals {
  std::uint64_t count = 0;
  double sum_ns = 0;
  double min_ns = 1e300;
};

TEST(OpenmpTrace, CriticalAndLockOperationsOfBothThreadsAreTracedAsTheProfileCountsThem) {
  TempDir tmp;
  const auto result =
      run_process({parperf_command().string(), "run", "-q", "-o", (tmp / "run").string(), "--trace", "--",
                   PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, "critical", "lock"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const analysis::RunData run = analysis::load_run(tmp / "run");
  const analysis::TraceRun traces = analysis::load_traces(run);
  ASSERT_EQ(traces.ranks.size(), 1u);
  const analysis::RankTrace& rank = traces.ranks[0];
  const double ns_per_tick = analysis::ns_per_tick(*rank.trace);

  std::map<std::uint32_t, SiteTotals> traced;                        // by site
  std::map<std::uint32_t, std::map<std::uint32_t, int>> per_thread;  // thread -> site -> operations
  std::map<std::uint32_t, int> regions;                              // thread -> parallel regions entered
  std::map<std::uint32_t, int> depth;
  auto streams = analysis::all_thread_streams(traces);
  analysis::merge_timeline(streams, traces.clocks, [&](const analysis::TimelineEvent& e) {
    switch (e.event.kind) {
      case format::TraceEventKind::enter:
        ++depth[e.thread];
        if (analysis::site_name(rank, e.event.site) == "parallel") ++regions[e.thread];
        break;
      case format::TraceEventKind::leave:
        EXPECT_GT(depth[e.thread]--, 0) << "thread " << e.thread << " leaves an interval it did not enter";
        break;
      case format::TraceEventKind::operation: {
        SiteTotals& totals = traced[e.event.site];
        const double ns = static_cast<double>(e.event.duration) * ns_per_tick;
        ++totals.count;
        totals.sum_ns += ns;
        totals.min_ns = std::min(totals.min_ns, ns);
        ++per_thread[e.thread][e.event.site];
        break;
      }
      default:
        break;
    }
  });
  EXPECT_GE(regions.size(), 2u) << "both threads of the team are in the trace";
  for (const auto& [thread, count] : regions)
    EXPECT_EQ(count, 2) << "thread " << thread << ": one region per part";

  const format::Profile& profile = run.profiles.at(0);
  int checked = 0;
  for (const format::Site& site : profile.sites) {
    const bool critical = site.kind == static_cast<std::uint32_t>(format::SiteKind::omp_critical);
    const bool lock = site.kind == static_cast<std::uint32_t>(format::SiteKind::omp_lock);
    if (!critical && !lock) continue;
    SCOPED_TRACE(critical ? "critical" : "lock");
    ++checked;
    const SiteTotals& totals = traced[site.id];
    EXPECT_EQ(totals.count, 40u) << "20 per thread";
    for (auto& [thread, sites] : per_thread) EXPECT_EQ(sites[site.id], 20) << "thread " << thread;
    EXPECT_GE(totals.min_ns, 2e6 * 0.999) << "each holds it 2 ms";
    std::uint64_t profile_count = 0;
    double profile_sum = 0;
    for (const format::Thread& thread : profile.threads)
      for (const format::Node& node : thread.nodes)
        for (const format::OperationStats& op : node.operations)
          if (op.site == site.id) profile_count += op.count, profile_sum += static_cast<double>(op.sum_ns);
    EXPECT_EQ(totals.count, profile_count) << "the trace has every operation the profile counts";
    EXPECT_NEAR(totals.sum_ns, profile_sum, 1e-4 * profile_sum + 100) << "and the same time in them";
  }
  EXPECT_EQ(checked, 2) << "the profile has a critical and a lock site";
}

}  // namespace
}  // namespace parperf::test
