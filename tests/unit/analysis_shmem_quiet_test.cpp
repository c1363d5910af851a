// The quiet edges of the activity graph (activity_graph.hpp): a shmem_quiet, or the quiet a
// shmem_barrier_all implies, ends after the PE's outstanding puts and non-blocking gets are complete.
// Built from hand-made OpenSHMEM traces whose answers follow from their construction (times in ms).
#include <gtest/gtest.h>

#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/network_model.hpp"
#include "analysis/trace/replay.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::kMs;
using test::TraceRunBuilder;

constexpr std::uint64_t kMB = 1'000'000;

// PE 0 of two: put_nbi 3 MB (10 ms) and putmem 2 MB (11 ms) into PE 1, a fence, a blocking get and a
// put into itself, then shmem_quiet from 12 to 30 ms; then put_nbi 8 bytes (31 ms) and
// shmem_barrier_all from 40 to 50 ms. PE 1 moves nothing and meets it at the barrier.
struct QuietRun {
  TraceRun run;
  Communication communication;
  ActivityGraph graph;
};

QuietRun quiet_run() {
  TraceRunBuilder b;
  for (std::int64_t pe = 0; pe < 2; ++pe) {
    b.rank(pe, 2);
    const auto init = b.site(SiteKind::shmem_management, "shmem_init");
    const auto barrier = b.site(SiteKind::shmem_barrier, "shmem_barrier_all");
    const auto finalize = b.site(SiteKind::shmem_management, "shmem_finalize");
    b.op(init, 0, 1, -1, 0, 0, 0, false);
    if (pe == 0) {
      const auto put_nbi = b.site(SiteKind::shmem_put_nbi, "shmem_putmem_nbi");
      const auto put = b.site(SiteKind::shmem_put, "shmem_putmem");
      const auto get = b.site(SiteKind::shmem_get, "shmem_getmem");
      const auto fence = b.site(SiteKind::shmem_memory_sync, "shmem_fence");
      const auto quiet = b.site(SiteKind::shmem_memory_sync, "shmem_quiet");
      b.op(put_nbi, 10, 10.1, 1, 0, 3 * kMB, 0, false)
          .op(put, 11, 11.5, 1, 0, 2 * kMB, 0, false)
          .op(fence, 11.6, 11.7, -1, 0, 0, 0, false)
          .op(get, 11.8, 11.9, 1, 0, kMB, 0, false)
          .op(put, 11.9, 11.95, 0, 0, kMB, 0, false)
          .op(quiet, 12, 30, -1, 0, 0, 0, false)
          .op(put_nbi, 31, 31.1, 1, 0, 8, 0, false);
    }
    b.op(barrier, 40, 50, -1, 0, 0, 0, false).op(finalize, 60, 61, -1, 0, 0, 0, false);
  }
  QuietRun r;
  r.run = b.build();
  r.communication = match_communication(r.run);
  r.graph = build_activity_graph(r.run, r.communication);
  return r;
}

std::vector<GraphEdge> quiet_edges(const ActivityGraph& g) {
  std::vector<GraphEdge> found;
  for (const GraphEdge& e : g.edges)
    if (e.kind == EdgeKind::shmem_quiet) found.push_back(e);
  return found;
}

TEST(ShmemQuiet, ItsEndWaitsForEveryOutstandingPutEachCarryingItsBytesAndThoseAfterIt) {
  const QuietRun r = quiet_run();
  const ActivityGraph& g = r.graph;
  EXPECT_EQ(g.linked.shmem_quiets, 2u) << "the quiet and the barrier_all after the 8-byte put";
  const std::vector<GraphEdge> edges = quiet_edges(g);
  ASSERT_EQ(edges.size(), 3u) << "two puts into PE 1 before the quiet, one before the barrier; the fence, "
                                 "the blocking get and the put into PE 0 itself are complete on return";
  EXPECT_DOUBLE_EQ(g.time[edges[0].source], 10 * kMs);
  EXPECT_DOUBLE_EQ(g.time[edges[0].target], 30 * kMs) << "into the quiet's end";
  EXPECT_EQ(edges[0].bytes, 5 * kMB) << "the first put drains behind it both puts' bytes";
  EXPECT_DOUBLE_EQ(g.time[edges[1].source], 11 * kMs);
  EXPECT_EQ(edges[1].target, edges[0].target);
  EXPECT_EQ(edges[1].bytes, 2 * kMB) << "the last put only its own";
  EXPECT_DOUBLE_EQ(g.time[edges[2].source], 31 * kMs);
  EXPECT_DOUBLE_EQ(g.time[edges[2].target], 50 * kMs) << "the barrier_all's implied quiet";
  EXPECT_EQ(edges[2].bytes, 8u);
  EXPECT_TRUE(network_edge(EdgeKind::shmem_quiet)) << "a quiet's time is transfer time";
}

TEST(ShmemQuiet, OnASlowerNetworkTheQuietEndsWhenTheQueueOfItsPutsHasDrained) {
  const QuietRun r = quiet_run();
  const ActivityGraph& g = r.graph;
  const std::vector<GraphEdge> edges = quiet_edges(g);
  ASSERT_EQ(edges.size(), 3u);
  const std::uint32_t quiet_end = edges[0].target;
  // 0.1 byte/ns: the 5 MB behind the first put take 50 ms, the last put's 2 MB 20 ms.
  ReplayChanges slow;
  slow.network = ReplayChanges::Network::model;
  slow.model.latency_ns = 0;
  slow.model.bytes_per_ns = 0.1;
  const ReplayResult replayed = replay(g, NetworkModel{}, slow);
  // The queue drains at max(10 + 50, 11 + 20) = 60 ms; the quiet keeps what it took beyond its
  // transfer on the run's own (here ideal) network, 30 - 12 = 18 ms.
  EXPECT_NEAR(replayed.time[quiet_end], (60 + 18) * kMs, 1e-3)
      << "the quiet ends when the first put and all the bytes behind it have arrived";
  ReplayChanges ideal;
  ideal.network = ReplayChanges::Network::ideal;
  // The calls before it cost nothing either: 0.1 + 0.5 + 0.1 + 0.1 + 0.05 ms less.
  EXPECT_NEAR(replay(g, NetworkModel{}, ideal).time[quiet_end], (12 - 0.85) * kMs, 1e-3)
      << "on an ideal network the quiet costs nothing";
}

}  // namespace
}  // namespace parperf::analysis
