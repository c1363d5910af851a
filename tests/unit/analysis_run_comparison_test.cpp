// Two analysed runs compared (run_comparison.hpp) on hand-built analyses whose figures are chosen so
// that every expected change, order and status follows from the construction.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/run_comparison.hpp"
#include "format/run_info.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

const std::uint32_t kUser = static_cast<std::uint32_t>(format::SiteKind::user);

// An analysed run built interval by interval: the program first, then children of earlier ones.
class AnalysisBuilder {
 public:
  explicit AnalysisBuilder(double program_time, std::uint64_t processors = 1) {
    analysis_.whole_run.intervals.push_back(MergedInterval{{0, "program", "", 0, 0, 0, ""}, 0, 0, {}, {}});
    analysis_.intervals.push_back({});
    set(0, program_time, processors);
  }

  // A user interval `name` at file:line with `value`, under `parent`, running `time` seconds.
  std::size_t add(std::size_t parent, const std::string& name, double time, std::int64_t line = 10,
                  std::int64_t value = 0) {
    const std::size_t index = analysis_.whole_run.intervals.size();
    const std::uint32_t level = analysis_.whole_run.intervals[parent].level + 1;
    analysis_.whole_run.intervals.push_back(
        MergedInterval{{kUser, name, "/src/solver.cpp", line, value, 0, ""}, level, parent, {}, {}});
    analysis_.whole_run.intervals[parent].children.push_back(index);
    analysis_.intervals.push_back({});
    set(index, time, analysis_.intervals[0].characteristics.processors);
    return index;
  }

  Characteristics& characteristics(std::size_t index) { return analysis_.intervals[index].characteristics; }
  const Analysis& analysis() const { return analysis_; }
  Analysis& analysis() { return analysis_; }

 private:
  // One entry per processor, all of them busy the whole time: efficiency 1, nothing lost.
  void set(std::size_t index, double time, std::uint64_t processors) {
    Characteristics& c = characteristics(index);
    c.execution_time = time;
    c.processors = processors;
    c.threads = processors;
    c.total_time = time * static_cast<double>(processors);
    c.productive_time = c.total_time;
    c.entries = processors;
  }
  Analysis analysis_;
};

const IntervalChange* find_change(const RunComparison& comparison, const std::vector<std::string>& names) {
  for (const IntervalChange& change : comparison.intervals) {
    if (change.path.size() != names.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < names.size(); ++i) same = same && change.path[i].name == names[i];
    if (same) return &change;
  }
  return nullptr;
}

std::string order_of(const RunComparison& comparison) {
  std::string order;
  for (const IntervalChange& change : comparison.intervals) {
    if (!order.empty()) order += ", ";
    order += change.step() ? change.step()->name : "program";
  }
  return order;
}

// A: "solve" 200 ms, "io" 100 ms, "old" 50 ms. B: "solve" 50 ms, "io" 100 ms, "fresh" 30 ms.
struct BeforeAfter {
  AnalysisBuilder a{1.0};
  AnalysisBuilder b{0.85};
  BeforeAfter() {
    a.add(0, "solve", 0.200, 10);
    a.add(0, "io", 0.100, 20);
    a.add(0, "old", 0.050, 30);
    b.add(0, "solve", 0.050, 10);
    b.add(0, "io", 0.100, 20);
    b.add(0, "fresh", 0.030, 40);
  }
};

TEST(RunComparison, MatchesIntervalsByIdentityAndNamesTheNewAndTheVanished) {
  const BeforeAfter runs;
  const RunComparison comparison = compare_runs(runs.a.analysis(), runs.b.analysis());
  ASSERT_EQ(comparison.intervals.size(), 5u)
      << "program, solve, io in both; old only in A; fresh only in B: " << order_of(comparison);
  const IntervalChange* solve = find_change(comparison, {"solve"});
  const IntervalChange* old = find_change(comparison, {"old"});
  const IntervalChange* fresh = find_change(comparison, {"fresh"});
  ASSERT_TRUE(solve && old && fresh) << order_of(comparison);
  EXPECT_EQ(solve->status, IntervalStatus::matched);
  EXPECT_EQ(solve->index_a, 1u);
  EXPECT_EQ(solve->index_b, 1u);
  EXPECT_EQ(old->status, IntervalStatus::vanished) << "'old' ran in A only";
  EXPECT_FALSE(old->b.has_value());
  EXPECT_EQ(fresh->status, IntervalStatus::added) << "'fresh' ran in B only";
  EXPECT_FALSE(fresh->a.has_value());
  EXPECT_EQ(fresh->index_b, 3u);
}

TEST(RunComparison, ChangesAreBMinusAWithAnAbsentIntervalCountingAsZero) {
  const BeforeAfter runs;
  const RunComparison comparison = compare_runs(runs.a.analysis(), runs.b.analysis());
  const IntervalChange* solve = find_change(comparison, {"solve"});
  const IntervalChange* fresh = find_change(comparison, {"fresh"});
  ASSERT_TRUE(solve && fresh);
  EXPECT_NEAR(*solve->delta(ComparedFigure::execution_time), -0.150, 1e-12) << "200 ms became 50 ms";
  EXPECT_NEAR(solve->impact, 0.150, 1e-12);
  EXPECT_NEAR(solve->impact_share, 0.150, 1e-12) << "150 ms of A's 1 s program";
  EXPECT_NEAR(*solve->delta(ComparedFigure::efficiency), 0, 1e-12);
  EXPECT_NEAR(*fresh->delta(ComparedFigure::execution_time), 0.030, 1e-12) << "new: 0 ms became 30 ms";
  EXPECT_NEAR(*fresh->delta(ComparedFigure::entries), 1, 1e-12);
  EXPECT_FALSE(fresh->delta(ComparedFigure::efficiency).has_value())
      << "an interval that did not run has no efficiency to compare";
}

TEST(RunComparison, TheProgramComesFirstThenTheBiggestChange) {
  const BeforeAfter runs;
  const RunComparison comparison = compare_runs(runs.a.analysis(), runs.b.analysis());
  EXPECT_EQ(order_of(comparison), "program, solve, old, fresh, io")
      << "by |Δ execution time|: solve 150 ms, old 50 ms, fresh 30 ms, io 0";
  EXPECT_TRUE(comparison.intervals[0].path.empty()) << "the program has the empty path";
  EXPECT_EQ(comparison.intervals[0].status, IntervalStatus::matched);
}

TEST(RunComparison, EqualTimeChangesAreOrderedByTheirLostTimeChange) {
  AnalysisBuilder a{1.0};
  AnalysisBuilder b{1.0};
  a.add(0, "calm", 0.1, 10);
  const std::size_t stormy_a = a.add(0, "stormy", 0.1, 20);
  b.add(0, "calm", 0.2, 10);
  const std::size_t stormy_b = b.add(0, "stormy", 0.2, 20);
  b.characteristics(stormy_b).lost_time = 0.05;
  b.characteristics(stormy_b).idle_time = 0.05;
  const RunComparison comparison = compare_runs(a.analysis(), b.analysis());
  EXPECT_EQ(order_of(comparison), "program, stormy, calm") << "both grew 100 ms; stormy also lost 50 ms more";
  const IntervalChange* stormy = find_change(comparison, {"stormy"});
  ASSERT_TRUE(stormy && stormy->largest_lost_change);
  EXPECT_EQ(stormy->largest_lost_change->component, ComparedFigure::idle_time);
  EXPECT_NEAR(stormy->largest_lost_change->delta, 0.05, 1e-12);
  EXPECT_EQ(stormy_a, 2u);
  EXPECT_FALSE(find_change(comparison, {"calm"})->largest_lost_change.has_value()) << "calm lost nothing";
}

TEST(RunComparison, TheSameIntervalUnderAnotherParentIsAnotherInterval) {
  // A recursive "walk": A enters it twice nested, B once.
  AnalysisBuilder a{1.0};
  AnalysisBuilder b{1.0};
  const std::size_t outer = a.add(0, "walk", 0.5);
  a.add(outer, "walk", 0.3);
  b.add(0, "walk", 0.4);
  const RunComparison comparison = compare_runs(a.analysis(), b.analysis());
  const IntervalChange* top = find_change(comparison, {"walk"});
  const IntervalChange* nested = find_change(comparison, {"walk", "walk"});
  ASSERT_TRUE(top && nested) << order_of(comparison);
  EXPECT_EQ(top->status, IntervalStatus::matched);
  EXPECT_NEAR(*top->delta(ComparedFigure::execution_time), -0.1, 1e-12);
  EXPECT_EQ(nested->status, IntervalStatus::vanished) << "B never entered walk inside walk";
}

TEST(RunComparison, ARenamedOrMovedIntervalVanishesAndAppearsAnew) {
  AnalysisBuilder a{1.0};
  AnalysisBuilder b{1.0};
  a.add(0, "assemble", 0.2, 10);
  a.add(0, "step", 0.1, 30, 1);
  b.add(0, "build", 0.2, 10);     // renamed
  b.add(0, "step", 0.1, 30, 2);   // the same site entered with another value
  b.add(0, "assemble", 0.2, 12);  // the old name, moved two lines down
  const RunComparison comparison = compare_runs(a.analysis(), b.analysis());
  int vanished = 0;
  int added = 0;
  for (const IntervalChange& change : comparison.intervals) {
    vanished += change.status == IntervalStatus::vanished;
    added += change.status == IntervalStatus::added;
  }
  EXPECT_EQ(vanished, 2) << "assemble at line 10 and step with value 1: " << order_of(comparison);
  EXPECT_EQ(added, 3) << "build, step with value 2, assemble at line 12: " << order_of(comparison);
}

TEST(RunComparison, AnIntervalNoProcessorExecutedIsNotInTheRun) {
  AnalysisBuilder a{1.0};
  AnalysisBuilder b{1.0};
  a.add(0, "solve", 0.2);
  const std::size_t idle = b.add(0, "solve", 0);
  b.characteristics(idle) = Characteristics{};  // in B's tree (another rank's), executed by none
  const RunComparison comparison = compare_runs(a.analysis(), b.analysis());
  const IntervalChange* solve = find_change(comparison, {"solve"});
  ASSERT_NE(solve, nullptr);
  EXPECT_EQ(solve->status, IntervalStatus::vanished);
}

TEST(RunComparison, TwoProcessorCountsGiveTheSpeedupAndTheScalingEfficiency) {
  AnalysisBuilder a{8.0, 2};
  AnalysisBuilder b{2.5, 8};
  a.characteristics(0).communication = 0.4;
  a.characteristics(0).idle_time = 1.0;
  b.characteristics(0).communication = 3.0;
  b.characteristics(0).idle_time = 0.5;
  b.characteristics(0).efficiency = 0.8;
  const RunComparison comparison = compare_runs(a.analysis(), b.analysis());
  const ProgramChange& program = comparison.program;
  EXPECT_TRUE(program.processors_differ);
  ASSERT_TRUE(program.speedup && program.scaling_efficiency);
  EXPECT_NEAR(*program.speedup, 3.2, 1e-12) << "8 s on 2 processors, 2.5 s on 8";
  EXPECT_NEAR(*program.scaling_efficiency, 0.8, 1e-12) << "3.2 times faster with 4 times the processors";
  EXPECT_NEAR(program.efficiency_delta, -0.2, 1e-12);
  ASSERT_EQ(program.lost_changes.size(), kLostComponents.size());
  EXPECT_EQ(program.lost_changes[0].component, ComparedFigure::communication) << "communication grew 2.6 s";
  EXPECT_NEAR(program.lost_changes[0].delta, 2.6, 1e-12);
  EXPECT_EQ(program.lost_changes[1].component, ComparedFigure::idle_time) << "idle time shrank 0.5 s";
}

TEST(RunComparison, EqualProcessorCountsHaveNoScalingEfficiency) {
  const BeforeAfter runs;
  const RunComparison comparison = compare_runs(runs.a.analysis(), runs.b.analysis());
  EXPECT_FALSE(comparison.program.processors_differ);
  ASSERT_TRUE(comparison.program.speedup.has_value());
  EXPECT_NEAR(*comparison.program.speedup, 1.0 / 0.85, 1e-12);
  EXPECT_FALSE(comparison.program.scaling_efficiency.has_value());
}

TEST(RunComparison, WarnsAboutDifferentProgramsAndDifferentProcessorUnits) {
  const BeforeAfter runs;
  RunData run_a;
  RunData run_b;
  run_a.directory = "/runs/a";
  run_b.directory = "/runs/b";
  run_a.run_info.emplace().command = {"/bin/heat", "--size", "100"};
  run_b.run_info.emplace().command = {"./wave", "--size", "100"};
  Analysis b = runs.b.analysis();
  b.unit = Unit::rank;
  const RunComparison comparison = compare_runs(run_a, runs.a.analysis(), run_b, b);
  EXPECT_EQ(comparison.a.directory, "/runs/a");
  EXPECT_EQ(comparison.b.command.front(), "./wave");
  ASSERT_EQ(comparison.warnings.size(), 2u);
  EXPECT_NE(comparison.warnings[0].find("A ran heat and B ran wave"), std::string::npos)
      << comparison.warnings[0];
  EXPECT_NE(comparison.warnings[1].find("--unit"), std::string::npos) << comparison.warnings[1];
  ASSERT_NE(find_change(comparison, {"solve"}), nullptr);
  EXPECT_EQ(find_change(comparison, {"solve"})->status, IntervalStatus::matched)
      << "different programs are still compared interval by interval";
}

TEST(RunComparison, OtherArgumentsOfTheSameProgramAreNoWarning) {
  const BeforeAfter runs;
  RunData run_a;
  RunData run_b;
  run_a.run_info.emplace().command = {"./heat", "100"};
  run_b.run_info.emplace().command = {"/home/me/heat", "200"};
  const RunComparison comparison = compare_runs(run_a, runs.a.analysis(), run_b, runs.b.analysis());
  EXPECT_TRUE(comparison.warnings.empty()) << comparison.warnings.front();
}

}  // namespace
}  // namespace parperf::analysis
