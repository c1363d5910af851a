// Merging the per-thread interval trees of all processes into one tree (interval_tree.hpp) and the
// totals of a merged interval (interval_totals.hpp). Inputs are decoded profiles built by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/interval_totals.hpp"
#include "analysis/interval_tree.hpp"
#include "unit/profile_values.hpp"

namespace parperf::analysis {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

// A decoded profile of one process: sites by name; threads whose nodes are added in pre-order
// under their root program node. `first_site_id` lets two processes number the same sites differently.
class ProfileBuilder {
 public:
  ProfileBuilder(std::int64_t rank, std::int64_t world_size, std::uint32_t first_site_id = 1)
      : next_site_(first_site_id) {
    profile.process.rank = rank;
    profile.process.world_size = world_size;
    program_ = site("program", 0, "", 0);
  }

  std::uint32_t site(const std::string& name, std::uint32_t kind = 1, const std::string& file = "app.cpp",
                     std::int64_t line = 10) {
    profile.sites.push_back(parperf::test::make_site(next_site_, kind, line, name, file));
    return next_site_++;
  }

  std::uint32_t event(const std::string& name, std::uint32_t id) {
    profile.events.push_back(format::Event{id, name, name + " %d"});
    return id;
  }

  std::size_t thread(std::uint32_t index) {
    format::Thread t;
    t.index = index;
    format::Node root;
    root.parent = format::kNoParent;
    root.site = program_;
    root.count = 1;
    t.nodes.push_back(root);
    profile.threads.push_back(t);
    profile.process.thread_count = static_cast<std::uint32_t>(profile.threads.size());
    return profile.threads.size() - 1;
  }

  format::Node& node(std::size_t thread, std::uint32_t parent, std::uint32_t site, std::uint64_t sum_ns,
                     std::int64_t value = 0) {
    std::vector<format::Node>& nodes = profile.threads[thread].nodes;
    format::Node n;
    n.parent = parent;
    n.site = site;
    n.value = value;
    n.count = 1;
    n.sum_ns = n.min_ns = n.max_ns = sum_ns;
    nodes.push_back(n);
    return nodes.back();
  }

  std::uint32_t last_node(std::size_t thread) const {
    return static_cast<std::uint32_t>(profile.threads[thread].nodes.size() - 1);
  }

  format::Profile profile;

 private:
  std::uint32_t next_site_;
  std::uint32_t program_ = 0;
};

const MergedInterval& child_named(const IntervalTree& tree, const MergedInterval& parent,
                                  const std::string& name, std::int64_t value = 0) {
  for (std::size_t child : parent.children) {
    const MergedInterval& c = tree.intervals[child];
    if (c.identity.name == name && c.identity.value == value) return c;
  }
  ADD_FAILURE() << "no interval \"" << name << "\" with value " << value << " under \""
                << parent.identity.name << "\"";
  return parent;
}

TEST(analysis_interval_tree, TheSameSiteWithDifferentValuesGivesDifferentIntervals) {
  ProfileBuilder p(0, 1);
  std::uint32_t step = p.site("step", 3);
  std::size_t t = p.thread(0);
  p.node(t, 0, step, 10 * kMs, 1);
  p.node(t, 0, step, 20 * kMs, 2);
  p.node(t, p.last_node(t), step, 5 * kMs, 1);  // step(1) nested inside step(2)
  IntervalTree tree = build_interval_tree({p.profile});
  const MergedInterval& root = tree.intervals[0];
  ASSERT_EQ(root.children.size(), 2u) << "step with value 1 and step with value 2 are two intervals";
  const MergedInterval& two = child_named(tree, root, "step", 2);
  EXPECT_EQ(two.locations.at(0).exec_ns(), 20 * kMs);
  ASSERT_EQ(two.children.size(), 1u);
  const MergedInterval& nested = child_named(tree, two, "step", 1);
  EXPECT_EQ(nested.level, 2u);
  EXPECT_EQ(nested.locations.at(0).exec_ns(), 5 * kMs) << "the nested step(1) is not the top-level step(1)";
  EXPECT_EQ(child_named(tree, root, "step", 1).locations.at(0).exec_ns(), 10 * kMs);
}

TEST(analysis_interval_tree, ChildrenComeInTheOrderTheThreadsRegisteredWhateverTheFileOrder) {
  ProfileBuilder b(0, 1);
  std::uint32_t work = b.site("work");
  std::uint32_t init = b.site("init");
  std::size_t worker = b.thread(1);  // the runtime writes the newest thread first
  b.node(worker, 0, work, 5 * kMs);
  std::size_t main_thread = b.thread(0);
  b.node(main_thread, 0, init, 5 * kMs);
  b.node(main_thread, 0, work, 5 * kMs);
  IntervalTree tree = build_interval_tree({b.profile});
  const MergedInterval& root = tree.intervals[0];
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(tree.intervals[root.children[0]].identity.name, "init")
      << "the main thread (index 0) met init first";
  EXPECT_EQ(tree.intervals[root.children[1]].identity.name, "work");
}

TEST(analysis_interval_tree, IntervalsDifferingInKindFileOrLineAreDifferent) {
  ProfileBuilder p(0, 1);
  std::uint32_t a = p.site("work", 1, "a.cpp", 10);
  std::uint32_t b = p.site("work", 1, "b.cpp", 10);
  std::uint32_t c = p.site("work", 1, "a.cpp", 11);
  std::uint32_t d = p.site("work", 2, "a.cpp", 10);
  std::size_t t = p.thread(0);
  for (std::uint32_t site : {a, b, c, d}) p.node(t, 0, site, kMs);
  IntervalTree tree = build_interval_tree({p.profile});
  EXPECT_EQ(tree.intervals[0].children.size(), 4u);
}

TEST(analysis_interval_tree, ProcessesThatNumberTheSameSiteDifferentlyMerge) {
  ProfileBuilder rank0(0, 2, 1);
  ProfileBuilder rank1(1, 2, 50);
  rank1.site("unrelated");  // shifts rank 1's ids once more
  std::uint32_t solve0 = rank0.site("solve", 1, "solver.cpp", 42);
  std::uint32_t solve1 = rank1.site("solve", 1, "solver.cpp", 42);
  ASSERT_NE(solve0, solve1);
  rank0.node(rank0.thread(0), 0, solve0, 30 * kMs);
  rank1.node(rank1.thread(0), 0, solve1, 70 * kMs);
  IntervalTree tree = build_interval_tree({rank0.profile, rank1.profile});
  const MergedInterval& root = tree.intervals[0];
  ASSERT_EQ(root.children.size(), 1u) << "solver.cpp:42 on both ranks is one interval";
  const MergedInterval& solve = tree.intervals[root.children[0]];
  ASSERT_EQ(solve.locations.size(), 2u);
  EXPECT_EQ(solve.locations[0].location, (Location{0, 0}));
  EXPECT_EQ(solve.locations[0].exec_ns(), 30 * kMs);
  EXPECT_EQ(solve.locations[1].location, (Location{1, 0}));
  EXPECT_EQ(solve.locations[1].exec_ns(), 70 * kMs);
  EXPECT_EQ(root.locations.size(), 2u) << "the program root of every process merges";
  EXPECT_EQ(tree.locations.size(), 2u);
  EXPECT_EQ(tree.threads_per_rank.size(), 2u);
}

TEST(analysis_interval_tree, AnEntryStillOpenCountsAsAnEntryUpToTheWrite) {
  ProfileBuilder p(0, 1);
  std::uint32_t solve = p.site("solve");
  std::size_t t = p.thread(0);
  format::Node& n = p.node(t, 0, solve, 0);
  n.count = 2;
  n.sum_ns = 30 * kMs;
  n.min_ns = 10 * kMs;
  n.max_ns = 20 * kMs;
  n.set_flag(format::kNodeOpen, true);
  n.open_ns = 45 * kMs;
  IntervalTree tree = build_interval_tree({p.profile});
  const LocationStats& stats = tree.intervals[1].locations.at(0);
  EXPECT_EQ(stats.entries(), 3u) << "two completed entries and one still open";
  EXPECT_EQ(stats.exec_ns(), 75 * kMs) << "30 ms completed + 45 ms of the open entry";
  EXPECT_TRUE(stats.open);
  EXPECT_EQ(stats.min_ns, 10 * kMs);
  EXPECT_EQ(stats.max_ns, 45 * kMs) << "the open entry already lasted longer than any completed one";
  IntervalTotals totals = interval_totals(tree.intervals[1]);
  EXPECT_EQ(totals.count, 3u);
  EXPECT_TRUE(totals.open);
}

TEST(analysis_interval_tree, OsCpuTimesIncludeEverythingNestedOnTheSameLocation) {
  ProfileBuilder p(0, 1);
  std::uint32_t outer = p.site("outer");
  std::uint32_t inner = p.site("inner");
  std::size_t t = p.thread(0);
  p.profile.threads[t].nodes[0].os_user_self_ns = 1 * kMs;
  format::Node& o = p.node(t, 0, outer, 100 * kMs);
  o.os_user_self_ns = 10 * kMs;
  o.os_sys_self_ns = 2 * kMs;
  std::uint32_t outer_index = p.last_node(t);
  format::Node& i = p.node(t, outer_index, inner, 50 * kMs);
  i.os_user_self_ns = 40 * kMs;
  i.os_sys_self_ns = 3 * kMs;
  IntervalTree tree = build_interval_tree({p.profile});
  EXPECT_EQ(tree.intervals[0].locations[0].os_user_ns, 51 * kMs) << "program: 1 + outer 10 + inner 40 ms";
  const MergedInterval& o_merged = child_named(tree, tree.intervals[0], "outer");
  EXPECT_EQ(o_merged.locations[0].os_user_ns, 50 * kMs) << "outer: its own 10 ms + inner's 40 ms";
  EXPECT_EQ(o_merged.locations[0].os_sys_ns, 5 * kMs);
  EXPECT_EQ(child_named(tree, o_merged, "inner").locations[0].os_user_ns, 40 * kMs);
}

TEST(analysis_interval_tree, UserEventsMergeByNameAcrossProcesses) {
  ProfileBuilder rank0(0, 2);
  ProfileBuilder rank1(1, 2);
  std::uint32_t send0 = rank0.event("send", 1);
  std::uint32_t send1 = rank1.event("send", 7);
  rank1.event("other", 1);
  format::Node& root0 = rank0.profile.threads[rank0.thread(0)].nodes[0];
  root0.events.push_back(parperf::test::make_event_stats(send0, 3, 3, 1, 30 * kMs, 5 * kMs, 15 * kMs, ""));
  format::Node& root1 = rank1.profile.threads[rank1.thread(0)].nodes[0];
  root1.events.push_back(
      parperf::test::make_event_stats(send1, 1, 1, 0, 2 * kMs, 2 * kMs, 2 * kMs, "send 42"));
  IntervalTotals totals = interval_totals(build_interval_tree({rank0.profile, rank1.profile}).intervals[0]);
  ASSERT_EQ(totals.events.size(), 1u) << "event 1 of rank 0 and event 7 of rank 1 are both \"send\"";
  const EventTotals& send = totals.events[0];
  EXPECT_EQ(send.name, "send");
  EXPECT_EQ(send.description, "send %d");
  EXPECT_EQ(send.starts, 4u);
  EXPECT_EQ(send.ends, 4u);
  EXPECT_EQ(send.atomics, 1u);
  EXPECT_NEAR(send.total, 0.032, 1e-12);
  EXPECT_NEAR(send.mean, 0.008, 1e-12);
  EXPECT_NEAR(send.min, 0.002, 1e-12);
  EXPECT_NEAR(send.max, 0.015, 1e-12);
  EXPECT_EQ(send.first_description, "send 42") << "the first location with a description supplies it";
}

TEST(analysis_interval_tree, LoopIterationTotalsCoverAllLocations) {
  ProfileBuilder p(0, 1);
  std::uint32_t loop = p.site("loop", 2);
  std::size_t t0 = p.thread(0);
  std::size_t t1 = p.thread(1);
  format::Node& a = p.node(t0, 0, loop, 40 * kMs);
  a.iterations.count = 4;
  a.iterations.sum_ns = 40 * kMs;
  a.iterations.min_ns = 5 * kMs;
  a.iterations.max_ns = 20 * kMs;
  format::Node& b = p.node(t1, 0, loop, 60 * kMs);
  b.iterations.count = 2;
  b.iterations.sum_ns = 60 * kMs;
  b.iterations.min_ns = 25 * kMs;
  b.iterations.max_ns = 35 * kMs;
  IntervalTree tree = build_interval_tree({p.profile});
  IntervalTotals totals = interval_totals(tree.intervals[1]);
  ASSERT_TRUE(totals.iterations.has_value());
  EXPECT_EQ(totals.iterations->count, 6u);
  EXPECT_NEAR(totals.iterations->total, 0.100, 1e-12);
  EXPECT_NEAR(totals.iterations->mean, 0.100 / 6, 1e-12);
  EXPECT_NEAR(totals.iterations->min, 0.005, 1e-12);
  EXPECT_NEAR(totals.iterations->max, 0.035, 1e-12);
  EXPECT_FALSE(interval_totals(tree.intervals[0]).iterations.has_value())
      << "the program has no iteration marks";
}

TEST(analysis_interval_tree, ARunWithoutAnyNodeStillHasAProgramRoot) {
  ProfileBuilder p(0, 1);
  p.profile.threads.push_back(format::Thread{});
  IntervalTree tree = build_interval_tree({p.profile});
  ASSERT_EQ(tree.intervals.size(), 1u);
  EXPECT_EQ(tree.intervals[0].identity.kind, 0u);
}

}  // namespace
}  // namespace parperf::analysis
