// The activity graph's OpenMP task edges (analysis/trace/task_links.hpp) on hand-built traces: a
// task begins after its creation, a taskwait ends after the children it waits for, a taskgroup after
// their descendants too; a trace without task ids (before 2.2) links none and says how many pieces.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analysis/trace/trace_analysis.hpp"
#include "analysis/trace/what_if.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using format::TraceEvent;
using format::TraceEventKind;
using test::ms;
using test::TraceRunBuilder;

constexpr std::uint64_t kLong =
    (std::uint64_t{1} << 32) | 1;  // thread 1's first task, as the runtime numbers
constexpr std::uint64_t kShort = (std::uint64_t{1} << 32) | 2;
constexpr std::uint64_t kLater = (std::uint64_t{1} << 32) | 3;

struct Sites {
  std::uint32_t main, create, task, taskwait, taskgroup, child;
};

Sites sites(TraceRunBuilder& b) {
  return {b.site(SiteKind::user, "main", "t.c", 1),
          b.site(SiteKind::omp_task_create, "task", "t.c", 5),
          b.site(SiteKind::omp_task, "task", "t.c", 5),
          b.site(SiteKind::omp_taskwait, "taskwait", "t.c", 9),
          b.site(SiteKind::omp_taskgroup, "taskgroup", "t.c", 4),
          b.site(SiteKind::user, "child", "t.c", 6)};
}

TraceEvent enter(double at, std::uint32_t site) {
  return {.kind = TraceEventKind::enter, .ticks = ms(at), .site = site};
}
TraceEvent leave(double at, std::uint32_t site) {
  return {.kind = TraceEventKind::leave, .ticks = ms(at), .site = site};
}
TraceEvent named(double at, std::uint64_t id) {
  return {.kind = TraceEventKind::task, .ticks = ms(at), .value = static_cast<std::int64_t>(id)};
}
TraceEvent create(double at, const Sites& s, std::uint64_t id) {
  return {.kind = TraceEventKind::operation,
          .ticks = ms(at),
          .site = s.create,
          .match = static_cast<std::int64_t>(id)};
}
// A wait from `from` to `to`, all of it waiting.
TraceEvent wait(double from, double to, std::uint32_t site) {
  return {.kind = TraceEventKind::operation,
          .ticks = ms(from),
          .site = site,
          .duration = ms(to) - ms(from),
          .wait = ms(to) - ms(from)};
}

// A task's piece on `thread` from `from` to `to`, named by `id` (0: a trace before 2.2), its work in
// the interval `work`.
void piece(TraceRunBuilder& b, std::uint32_t thread, const Sites& s, std::uint64_t id, double from, double to,
           std::uint32_t work) {
  b.event(enter(from, s.task), thread);
  if (id != 0) b.event(named(from, id), thread);
  b.event(enter(from, work), thread).event(leave(to, work), thread).event(leave(to, s.task), thread);
}

// Thread 0 creates a long child (300 ms of "child", run by thread 1) and a short one (1 ms, run by
// thread 1 first), then waits in a taskwait from 3 ms until the long child ends (~305 ms), then
// works 10 ms; it creates a third child and waits for it in a second taskwait. With ids, the long
// child is the run's critical path; without, the taskwait is a wait with nothing behind it.
TraceAnalysis taskwait_run(bool with_ids) {
  TraceRunBuilder b;
  b.rank(0, 1);
  const Sites s = sites(b);
  const auto id = [&](std::uint64_t task) { return with_ids ? task : 0; };
  b.event(enter(0.1, s.main))
      .event(create(1, s, id(kLong)))
      .event(create(2, s, id(kShort)))
      .event(wait(3, 305.2, s.taskwait))
      .event(create(315, s, id(kLater)))
      .event(wait(315.1, 320.2, s.taskwait))
      .event(leave(321, s.main));
  piece(b, 1, s, id(kShort), 2.1, 3.1, s.main);
  piece(b, 1, s, id(kLong), 5, 305, s.child);
  piece(b, 1, s, id(kLater), 315.2, 320, s.main);
  return analyse_traces(b.build());  // while the builder holds the profiles the run points to
}

TEST(TaskLinks, AChildBeginsAfterItsCreationAndTheTaskwaitEndsAfterTheChildrenCreatedSinceTheLastOne) {
  const TraceAnalysis a = taskwait_run(true);
  const ActivityGraph& g = *a.graph;
  EXPECT_EQ(g.linked.task_creations, 3u) << "three tasks created and run: each begins after its creation";
  EXPECT_EQ(g.linked.task_waits, 3u)
      << "the first taskwait waits for the two children created before it, the second for the third "
         "only (the first two were waited for already)";
  EXPECT_EQ(g.unlinked.task_pieces, 0u);
  std::size_t creations = 0, waits = 0;
  for (std::uint32_t i = 0; i < g.edges.size(); ++i) {
    const GraphEdge& e = g.edges[i];
    const std::uint32_t target = g.edge_target(i);
    creations += e.kind == EdgeKind::task_creation;
    waits += e.kind == EdgeKind::task_wait;
    if (e.kind == EdgeKind::task_creation) {
      EXPECT_LE(g.time[e.source], g.time[target]) << "a task began before it was created";
    }
    if (e.kind == EdgeKind::task_wait) {
      EXPECT_LE(g.time[e.source], g.time[target]) << "a taskwait ended before a child it waits for";
    }
  }
  EXPECT_EQ(creations, 3u);
  EXPECT_EQ(waits, 3u);
}

TEST(TaskLinks, TheCriticalPathRunsThroughTheChildATaskwaitWaitedForAndShorteningItShortensTheRun) {
  const TraceAnalysis a = taskwait_run(true);
  const auto child = std::find_if(a.critical_path.intervals.begin(), a.critical_path.intervals.end(),
                                  [](const PathInterval& i) { return i.interval.name == "child"; });
  ASSERT_NE(child, a.critical_path.intervals.end()) << "the long child is not on the critical path";
  // The run is 321 ms of which thread 1 runs the child 300 ms while thread 0 waits for it.
  EXPECT_NEAR(child->time_ns, 300 * test::kMs, 1 * test::kMs) << "the child's 300 ms are the path's";
  EXPECT_NEAR(child->share, 300.0 / 321, 0.01);

  ReplayChanges halved;
  halved.network = ReplayChanges::Network::measured;
  halved.scale = {{"child", 2.0}};
  const WhatIf w = what_if(a, halved);
  EXPECT_NEAR(w.gain_ns(), 150 * test::kMs, 1 * test::kMs)
      << "the taskwait waits for the child: running it twice as fast gains half its 300 ms";
}

TEST(TaskLinks, ATraceWithoutTaskIdsLinksNoTaskAndCountsItsPieces) {
  // Before 2.2 a creation carried no id and no `task` event named a piece.
  const TraceAnalysis a = taskwait_run(false);
  const ActivityGraph& g = *a.graph;
  EXPECT_EQ(g.linked.task_creations, 0u);
  EXPECT_EQ(g.linked.task_waits, 0u);
  EXPECT_EQ(g.unlinked.task_pieces, 3u) << "three pieces of tasks the trace does not name";
  const auto child = std::find_if(a.critical_path.intervals.begin(), a.critical_path.intervals.end(),
                                  [](const PathInterval& i) { return i.interval.name == "child"; });
  EXPECT_TRUE(child == a.critical_path.intervals.end() || child->share < 0.01)
      << "without the links the taskwait is a wait with nothing behind it, as before";
}

TEST(TaskLinks, ATaskgroupWaitsForTheDescendantsATaskwaitDoesNot) {
  // Thread 0 creates A (run by thread 1 from 2 ms); A creates G at 3 ms and ends at 4 ms; G runs on
  // thread 2 from 5 ms to 200 ms. Thread 0's taskgroup (or taskwait) ends at 201 ms.
  constexpr std::uint64_t kA = (std::uint64_t{1} << 32) | 1, kG = (std::uint64_t{2} << 32) | 1;
  for (const bool group : {true, false}) {
    TraceRunBuilder b;
    b.rank(0, 1);
    const Sites s = sites(b);
    b.event(enter(0.1, s.main))
        .event(create(1, s, kA))
        .event(wait(1.5, 201, group ? s.taskgroup : s.taskwait))
        .event(leave(202, s.main));
    b.event(enter(2, s.task), 1).event(named(2, kA), 1).event(create(3, s, kG), 1).event(leave(4, s.task), 1);
    piece(b, 2, s, kG, 5, 200, s.child);
    const TraceAnalysis a = analyse_traces(b.build());
    const ActivityGraph& g = *a.graph;
    EXPECT_EQ(g.linked.task_creations, 2u);
    EXPECT_EQ(g.linked.task_waits, group ? 2u : 1u)
        << (group ? "the taskgroup waits for A and for G, which A created inside the group"
                  : "a taskwait waits for A only, not for A's child G");
  }
}

TEST(TaskLinks, APieceWhoseCreationIsNotTracedIsCountedUnlinked) {
  TraceRunBuilder b;
  b.rank(0, 1);
  const Sites s = sites(b);
  b.event(enter(0.1, s.main)).event(leave(10, s.main));
  piece(b, 1, s, kLong, 1, 5, s.child);
  const TraceAnalysis a = analyse_traces(b.build());
  EXPECT_EQ(a.graph->linked.task_creations, 0u);
  EXPECT_EQ(a.graph->unlinked.task_pieces, 1u) << "its creation lies before the trace (or was not traced)";
}

}  // namespace
}  // namespace parperf::analysis
