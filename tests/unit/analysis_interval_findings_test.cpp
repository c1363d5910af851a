// The main finding of last resort (analysis/interval_findings.hpp): the intervals that lose most, named
// when no SRC point, loop or serial section explains the program's loss. Trees and figures by hand.
#include <gtest/gtest.h>

#include "analysis/interval_findings.hpp"

namespace parperf::analysis {
namespace {

// A tree of `lost` times (seconds), each interval's parent given; the program (0) has Total time 1 s.
struct Case {
  IntervalTree tree;
  std::vector<IntervalAnalysis> intervals;
};

Case tree_of(const std::vector<std::pair<std::size_t, double>>& parent_and_lost) {
  Case c;
  for (std::size_t i = 0; i < parent_and_lost.size(); ++i) {
    MergedInterval m;
    m.identity = {1, "interval " + std::to_string(i), "app.c", static_cast<std::int64_t>(10 * i), 0};
    m.parent = parent_and_lost[i].first;
    if (i > 0) c.tree.intervals[m.parent].children.push_back(i);
    c.tree.intervals.push_back(m);
    IntervalAnalysis a;
    a.characteristics.total_time = 1.0;
    a.characteristics.lost_time = parent_and_lost[i].second;
    a.characteristics.idle_time = parent_and_lost[i].second;
    Finding idle;
    idle.kind = FindingKind::idle_between_processors;
    idle.share = parent_and_lost[i].second;
    idle.fastest_processor = 1;
    idle.slowest_processor = 0;
    idle.execution_spread = parent_and_lost[i].second;
    a.diagnosis = {idle};
    c.intervals.push_back(a);
  }
  return c;
}

std::vector<std::string> names(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.interval ? f.interval->name : "?");
  return out;
}

TEST(IntervalLossFindings, TheIntervalsThatLoseMostAreNamedWithTheirOwnLoss) {
  // program 0.30 lost; its children: a 0.10, b 0.08, c 0.01 (below 3 %).
  const Case c = tree_of({{0, 0.30}, {0, 0.10}, {0, 0.08}, {0, 0.01}});
  const auto findings = interval_loss_findings(c.tree, c.intervals, {});
  EXPECT_EQ(names(findings), (std::vector<std::string>{"interval 0", "interval 1", "interval 2"}))
      << "the program's own 0.30 s is not held by a child, so it is named, then a and b; c loses too little";
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[1].kind, FindingKind::interval_loss);
  EXPECT_EQ(findings[1].explains, FindingKind::idle_between_processors) << "its own largest loss";
  EXPECT_DOUBLE_EQ(findings[1].share, 0.10);
  EXPECT_DOUBLE_EQ(findings[1].estimated_gain, 0.10);
  EXPECT_EQ(findings[1].slowest_processor, 0) << "the interval's figures are kept";
}

TEST(IntervalLossFindings, AParentWhoseChildHoldsHalfItsLossGivesWayToTheChild) {
  // program 0.20 ⊃ phase 0.15 ⊃ step 0.12: only the step is named.
  const Case c = tree_of({{0, 0.20}, {0, 0.15}, {1, 0.12}});
  EXPECT_EQ(names(interval_loss_findings(c.tree, c.intervals, {})), (std::vector<std::string>{"interval 2"}));
}

TEST(IntervalLossFindings, NoneWhenAFindingAlreadyNamesTheCode) {
  const Case c = tree_of({{0, 0.30}, {0, 0.10}});
  Finding barrier;
  barrier.kind = FindingKind::unbalanced_barrier;
  barrier.src_point = SrcPoint{};
  EXPECT_TRUE(interval_loss_findings(c.tree, c.intervals, {barrier}).empty());
  Finding startup;
  startup.kind = FindingKind::startup;
  EXPECT_EQ(interval_loss_findings(c.tree, c.intervals, {startup}).size(), 2u)
      << "start-up names no code: the intervals are still worth naming";
}

TEST(IntervalLossFindings, AtMostThree) {
  const Case c = tree_of({{0, 0.05}, {0, 0.20}, {0, 0.19}, {0, 0.18}, {0, 0.17}});
  EXPECT_EQ(names(interval_loss_findings(c.tree, c.intervals, {})),
            (std::vector<std::string>{"interval 1", "interval 2", "interval 3"}));
}

}  // namespace
}  // namespace parperf::analysis
