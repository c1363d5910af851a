// Sites by id (analysis/trace/site_index.hpp), and the trace analyses that look every event's site up
// through it: a run whose sites are numbered by code address (too sparse for a table) must match and
// build exactly as the same run numbered densely.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/site_index.hpp"
#include "unit/analysis_trace_run_builder.hpp"

namespace parperf::analysis {
namespace {

using format::SiteKind;
using test::TraceRunBuilder;

format::Profile profile_with_ids(const std::vector<std::uint32_t>& ids) {
  format::Profile p;
  for (const std::uint32_t id : ids) {
    format::Site s;
    s.id = id;
    s.name = "site " + std::to_string(id) + " #" + std::to_string(p.sites.size());
    p.sites.push_back(s);
  }
  return p;
}

TEST(TraceSiteIndex, FindsDenseAndSparseIdsAndTheLaterOfTwoSitesWithOneId) {
  for (const bool sparse : {false, true}) {
    const std::uint32_t scale = sparse ? 0x10000 : 1;  // code addresses: far more ids than sites
    const format::Profile p = profile_with_ids({1 * scale, 3 * scale, 2 * scale, 3 * scale});
    const SiteIndex index(&p);
    SCOPED_TRACE(sparse ? "ids 0x10000 apart" : "ids 1, 2, 3");
    EXPECT_EQ(index.find(1 * scale), &p.sites[0]);
    EXPECT_EQ(index.find(2 * scale), &p.sites[2]);
    EXPECT_EQ(index.find(3 * scale), &p.sites[3])
        << "the later site of id 3, as a map assigned in order keeps";
    EXPECT_EQ(index.find(0), nullptr) << "no site 0";
    EXPECT_EQ(index.find(4 * scale), nullptr) << "an id past the largest";
    EXPECT_EQ(index.slot(5 * scale + 1), SiteIndex::kNone);
  }
  const SiteIndex none(nullptr);
  EXPECT_EQ(none.find(1), nullptr) << "a rank without a profile has no sites";
}

// The run of `b` with every site id (in the profiles and the events) moved to id * 0x10000 + 0x400000.
struct RenumberedRun {
  explicit RenumberedRun(const TraceRun& dense) : run(dense) {
    for (RankTrace& r : run.ranks) {
      format::Profile& p = profiles.emplace_back(*r.profile);
      for (format::Site& s : p.sites) s.id = renumber(s.id);
      auto trace = std::make_shared<format::TraceFile>(*r.trace);
      for (format::TraceBlock& block : trace->blocks)
        for (format::TraceEvent& e : block.events) e.site = renumber(e.site);
      r.trace = trace;
    }
    for (std::size_t i = 0; i < run.ranks.size(); ++i) run.ranks[i].profile = &profiles[i];
  }
  static std::uint32_t renumber(std::uint32_t id) { return id * 0x10000 + 0x400000; }
  std::deque<format::Profile> profiles;
  TraceRun run;
};

TEST(TraceSiteIndex, ARunWhoseSitesAreCodeAddressesMatchesAndBuildsAsTheSameRunNumberedDensely) {
  TraceRunBuilder b;
  b.rank(0, 2);
  const auto isend = b.site(SiteKind::mpi_isend, "MPI_Isend");
  const auto barrier0 = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
  b.op(isend, 10, 10.1, 1, 3, 64).op(barrier0, 12, 20, -1, 0);
  b.rank(1, 2);
  const auto barrier1 = b.site(SiteKind::mpi_barrier, "MPI_Barrier");
  const auto recv = b.site(SiteKind::mpi_recv, "MPI_Recv");
  // The receive overlaps the barrier's start as traced (it ends at 15, the barrier began at 14): its
  // points come out of time order and are sorted, as the dense run's are.
  b.op(recv, 5, 15, 0, 3).op(barrier1, 14, 20, -1, 0);
  const TraceRun dense = b.build();
  const RenumberedRun sparse(dense);

  const Communication c_dense = match_communication(dense);
  const Communication c_sparse = match_communication(sparse.run);
  ASSERT_EQ(c_dense.messages.size(), 1u);
  ASSERT_EQ(c_sparse.messages.size(), 1u) << "the message is matched whatever the sites' ids";
  EXPECT_EQ(c_sparse.messages[0].receive_kind, static_cast<std::uint32_t>(SiteKind::mpi_recv));
  EXPECT_DOUBLE_EQ(c_sparse.messages[0].receive.end_ns, c_dense.messages[0].receive.end_ns);
  ASSERT_EQ(c_sparse.collectives.size(), 1u) << "the barrier of both ranks is one instance";
  EXPECT_EQ(c_sparse.collectives[0].name, "MPI_Barrier");

  const ActivityGraph g_dense = build_activity_graph(dense, c_dense);
  const ActivityGraph g_sparse = build_activity_graph(sparse.run, c_sparse);
  EXPECT_EQ(g_sparse.time, g_dense.time) << "the same nodes at the same times";
  EXPECT_EQ(g_sparse.segment, g_dense.segment);
  EXPECT_EQ(g_sparse.operation, g_dense.operation);
  ASSERT_EQ(g_sparse.edges.size(), g_dense.edges.size()) << "the message and the barrier's edges";
  for (std::uint32_t e = 0; e < g_dense.edges.size(); ++e) {
    EXPECT_EQ(g_sparse.edges[e].source, g_dense.edges[e].source) << "edge " << e;
    EXPECT_EQ(g_sparse.edge_target(e), g_dense.edge_target(e)) << "edge " << e;
  }
  EXPECT_EQ(g_dense.linked.messages, 1u);
  EXPECT_EQ(g_dense.linked.collectives, 1u);
  for (const GraphLocation& l : g_dense.locations)
    for (std::uint32_t k = l.first + 1; k < l.end; ++k)
      EXPECT_LE(g_dense.time[k - 1], g_dense.time[k]) << "rank " << l.rank << "'s nodes are in time order";
}

// The graph numbers its operations' names in 16 bits (2 bytes a node): 65,535 names besides "none"
// are numbered, one more is refused naming the trace, never wrapped into another's number.
TEST(TraceSiteIndex, ATraceOfMoreOperationNamesThanTheGraphNumbersIsRefusedNamingItsFile) {
  for (const std::uint32_t names : {65535u, 65536u}) {
    TraceRunBuilder b;
    b.rank(0, 1);
    for (std::uint32_t i = 0; i < names; ++i) {
      const double at = 0.001 * i;
      b.op(b.site(format::SiteKind::mpi_barrier, "MPI_Op" + std::to_string(i)), at, at + 0.0005, -1, 0, 0, 0,
           false);
    }
    const TraceRun run = b.build();
    const Communication c = match_communication(run);
    if (names == 65535) {
      EXPECT_EQ(build_activity_graph(run, c).operations.size(), 65536u) << "every name and none";
      continue;
    }
    try {
      build_activity_graph(run, c);
      ADD_FAILURE() << "65,536 operation names were numbered in 16 bits";
    } catch (const std::length_error& e) {
      EXPECT_NE(std::string(e.what()).find("trace.0.ppt"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("65535 different operations"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace parperf::analysis
