// Scenario: the event trace of an OpenMP program (sync_constructs.c, built with clang: libomp) run
// under `parperf run --trace`. Ground truth from the program: in the part `critical` each of the
// region's 2 threads enters `critical` 20 times and holds it 2 ms; in the part `lock` the same with
// omp_set_lock.
//
// Expected: each thread's parallel regions are in the trace, nested, and its 20 critical and 20 lock
// operations too, each at least the 2 ms it held; and the trace agrees with the profile of the same
// run: per site, as many operations and the same total time (the two are recorded from the same
// measurement, so they differ only by the tick-to-ns rounding of each operation).
//
// The wait states name who made a thread wait. In the part `sections` the thread of the 20 ms
// section waits 40 ms at the construct's implicit barrier for the thread of the 60 ms one: that
// thread is the culprit of at least 36 ms (sleeps only overrun). In the part `lock` each thread
// waits to acquire the lock while the other holds it: what each thread caused is what the other
// waited, and every wait but a thread's first has a culprit.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

// The wait-state pattern `key` of `parperf report --json` on a traced run of sync_constructs `part`.
nlohmann::json wait_pattern(const TempDir& tmp, const std::string& part, const std::string& key) {
  const std::string dir = (tmp / part).string();
  const auto run = run_process({parperf_command().string(), "run", "-q", "-o", dir, "--trace", "--",
                                PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, part});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  const auto report = run_process({parperf_command().string(), "report", "--json", dir});
  EXPECT_EQ(report.exit_code, 0) << describe(report);
  const nlohmann::json parsed = nlohmann::json::parse(report.out);
  for (const nlohmann::json& p : parsed["wait_states"]["patterns"])
    if (p["pattern"] == key) return p;
  ADD_FAILURE() << "no " << key << " wait states in the report of part " << part << ":\n" << report.out;
  return nlohmann::json::object();
}

TEST(OpenmpTrace, TheThreadOfTheLongSectionIsNamedAsTheCauseOfTheWaitAtTheBarrier) {
  TempDir tmp;
  const nlohmann::json barrier = wait_pattern(tmp, "sections", "omp_barrier");
  ASSERT_FALSE(barrier.empty());
  const nlohmann::json& waiter = barrier["waiting"].at(0);  // most time lost first
  // The short section's thread waits 40 ms, less what it lost to another runnable process inside its
  // section (it then arrives later): up to a scheduler slice, about 6 ms on two cores, and its late
  // wake-up, a few ms more on a busy machine. No wait found, or one not attributed, stays far below.
  constexpr double kLeastWait = 0.030;
  EXPECT_GE(waiter["lost"].get<double>(), kLeastWait) << "the thread of the short section waits 40 ms";
  ASSERT_FALSE(barrier["causes"].empty()) << "the barrier's wait has a culprit:\n" << barrier.dump(2);
  const nlohmann::json& culprit = barrier["causes"].at(0);
  EXPECT_EQ(culprit["rank"], 0);
  ASSERT_TRUE(culprit.contains("thread")) << "an OpenMP culprit is a thread: " << culprit.dump();
  EXPECT_NE(culprit["thread"], waiter["thread"]) << "the thread that waited did not make itself wait";
  EXPECT_GE(culprit["lost"].get<double>(), kLeastWait)
      << "the other thread, still in its 60 ms section, caused it";
}

TEST(OpenmpTrace, EachThreadCausesTheLockWaitsOfTheOther) {
  TempDir tmp;
  const nlohmann::json lock = wait_pattern(tmp, "lock", "omp_lock");
  ASSERT_FALSE(lock.empty());
  std::map<std::uint32_t, double> waited, caused;
  std::map<std::uint32_t, std::uint64_t> waits, culprit_of;
  for (const nlohmann::json& w : lock["waiting"]) {
    waited[w["thread"].get<std::uint32_t>()] = w["lost"].get<double>();
    waits[w["thread"].get<std::uint32_t>()] = w["instances"].get<std::uint64_t>();
  }
  for (const nlohmann::json& c : lock["causes"]) {
    ASSERT_TRUE(c.contains("thread")) << c.dump();
    caused[c["thread"].get<std::uint32_t>()] = c["lost"].get<double>();
    culprit_of[c["thread"].get<std::uint32_t>()] = c["instances"].get<std::uint64_t>();
  }
  ASSERT_EQ(waited.size(), 2u) << lock.dump(2);
  ASSERT_EQ(caused.size(), 2u) << "each thread made the other wait:\n" << lock.dump(2);
  const std::uint32_t a = waited.begin()->first, b = std::next(waited.begin())->first;
  // A wait right after the same thread's own release has no other culprit: at most a few per thread.
  EXPECT_NEAR(caused[a], waited[b], 0.1 * waited[b])
      << "thread " << a << " caused what thread " << b << " waited";
  EXPECT_NEAR(caused[b], waited[a], 0.1 * waited[a])
      << "thread " << b << " caused what thread " << a << " waited";
  EXPECT_GE(culprit_of[a] + culprit_of[b] + 4, waits[a] + waits[b]) << "nearly every wait has its culprit";
}

}  // namespace
}  // namespace parperf::test
