// Building a report from an analysed run: which intervals it shows (--level, --intervals,
// --exclude), which per-processor rows (--procs), the processor unit, the run summary and the
// diagnosis. The run is a decoded profile built by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "report/report_builder.hpp"
#include "unit/profile_values.hpp"

namespace parperf::report {
namespace {

constexpr std::uint64_t kMs = 1'000'000;

// One process, two threads:
//   program (level 0)
//     init            thread 0: 10 ms
//     solve           thread 0: 60 ms, thread 1: 180 ms
//       step(1)       thread 0: 20 ms
//       step(2)       thread 1: 30 ms, still open
//     output          thread 1: 5 ms
class SampleRun {
 public:
  SampleRun() {
    format::Profile& p = run.profiles.emplace_back();
    run.profile_files.push_back("profile.0.ppf");
    run.world_size = 1;
    run.directory = "/runs/sample";
    p.process.command_line = "./sample --size 10";
    p.process.thread_count = 2;
    p.sites = {site(1, 0, "sample"), site(2, 1, "init"), site(3, 1, "solve"), site(4, 3, "step"),
               site(5, 1, "output")};
    thread(0, {{0, 2, 0, 10}, {0, 3, 0, 60}, {2, 4, 1, 20}});
    thread(1, {{0, 3, 0, 180}, {1, 4, 2, 30}, {0, 5, 0, 5}});
    p.threads[1].nodes[2].count = 0;
    p.threads[1].nodes[2].sum_ns = 0;
    p.threads[1].nodes[2].set_flag(format::kNodeOpen, true);
    p.threads[1].nodes[2].open_ns = 30 * kMs;
  }

  Report build(const ReportOptions& options = {}, const analysis::AnalysisOptions& analysis = {}) const {
    return build_report(run, analysis::analyze(run, analysis), options);
  }

  analysis::RunData run;

 private:
  struct NodeSpec {
    std::uint32_t parent, site;
    std::int64_t value;
    std::uint64_t ms;
  };
  static format::Site site(std::uint32_t id, std::uint32_t kind, const char* name) {
    return parperf::test::make_site(id, kind, 10 * id, name, "sample.cpp");
  }
  void thread(std::uint32_t index, const std::vector<NodeSpec>& specs) {
    format::Thread t;
    t.index = index;
    format::Node root;
    root.site = 1;
    root.count = 1;
    root.sum_ns = 300 * kMs;
    t.nodes.push_back(root);
    for (const NodeSpec& s : specs) {
      format::Node n;
      n.parent = s.parent;
      n.site = s.site;
      n.value = s.value;
      n.count = 1;
      n.sum_ns = n.min_ns = n.max_ns = s.ms * kMs;
      t.nodes.push_back(n);
    }
    run.profiles[0].threads.push_back(t);
  }
};

// "name(value)@level" for every interval in pre-order: the shape of the report in one string.
void outline(const std::vector<ReportInterval>& intervals, std::string& out) {
  for (const ReportInterval& i : intervals) {
    out += (out.empty() ? "" : " ") + i.identity.name;
    if (i.identity.value != 0) out += "(" + std::to_string(i.identity.value) + ")";
    out += "@" + std::to_string(i.level);
    if (!i.children.empty()) {
      out += " [";
      std::string inner;
      outline(i.children, inner);
      out += inner + "]";
    }
  }
}
std::string outline(const Report& report) {
  std::string out;
  outline(report.intervals, out);
  return out;
}

const ReportInterval& solve(const Report& report) { return report.intervals.at(0).children.at(1); }

TEST(report_builder, ShowsEveryIntervalByDefault) {
  EXPECT_EQ(outline(SampleRun().build()), "sample@0 [init@1 solve@1 [step(1)@2 step(2)@2] output@1]");
}

TEST(report_builder, LevelLimitsTheNestingDepth) {
  ReportOptions options;
  options.filter.max_level = 1;
  EXPECT_EQ(outline(SampleRun().build(options)), "sample@0 [init@1 solve@1 output@1]");
  options.filter.max_level = 0;
  EXPECT_EQ(outline(SampleRun().build(options)), "sample@0");
}

TEST(report_builder, IntervalsShowsOnlyMatchesUnderTheirNearestShownAncestor) {
  ReportOptions options;
  options.filter.include = {"st*", "init"};
  EXPECT_EQ(outline(SampleRun().build(options)), "init@1 step(1)@2 step(2)@2")
      << "matches keep their real level; without a matching ancestor they are roots";
  options.filter.include = {"sample", "step"};
  EXPECT_EQ(outline(SampleRun().build(options)), "sample@0 [step(1)@2 step(2)@2]");
}

TEST(report_builder, ExcludeDropsMatchesWithTheirSubtrees) {
  ReportOptions options;
  options.filter.exclude = {"solve", "out*"};
  EXPECT_EQ(outline(SampleRun().build(options)), "sample@0 [init@1]");
}

TEST(report_builder, CharacteristicsOfTheSolveInterval) {
  Report report = SampleRun().build();
  const ReportInterval& s = solve(report);
  EXPECT_EQ(report.run.unit, analysis::Unit::thread) << "a single process: each thread is a processor";
  EXPECT_EQ(s.count, 2u);
  EXPECT_NEAR(s.characteristics.execution_time, 0.180, 1e-9);
  EXPECT_NEAR(s.characteristics.idle_time, 0.120, 1e-9) << "thread 0 waits 120 ms for thread 1";
  EXPECT_NEAR(s.characteristics.efficiency, 2.0 / 3.0, 1e-9);
  EXPECT_EQ(s.comparative[analysis::Figure::execution_time].max_processor, 1);
  EXPECT_EQ(s.diagnosis,
            "idle time is 33% of total: processor 0 finishes 120 ms before processor 1 (load imbalance)");
}

TEST(report_builder, AnOpenEntryMarksItsInterval) {
  Report report = SampleRun().build();
  const ReportInterval& step2 = solve(report).children.at(1);
  EXPECT_TRUE(step2.open);
  EXPECT_EQ(step2.count, 1u) << "the open entry counts";
  EXPECT_NEAR(step2.characteristics.execution_time, 0.030, 1e-9)
      << "up to the moment the profile was written";
  EXPECT_FALSE(solve(report).open);
}

TEST(report_builder, RankUnitMakesTheProcessOneProcessor) {
  analysis::AnalysisOptions options;
  options.unit = analysis::Unit::rank;
  Report report = SampleRun().build({}, options);
  EXPECT_EQ(report.run.unit, analysis::Unit::rank);
  const ReportInterval& s = solve(report);
  EXPECT_EQ(s.characteristics.processors, 1u);
  EXPECT_NEAR(s.characteristics.efficiency, 2.0 / 3.0, 1e-9) << "the same efficiency as in thread unit";
  EXPECT_NE(s.diagnosis.find("threads inside a process"), std::string::npos) << s.diagnosis;
}

TEST(report_builder, PerProcessorRowsFollowProcs) {
  Report all = SampleRun().build();
  EXPECT_FALSE(all.show_per_processor) << "rows are printed only when asked";
  EXPECT_EQ(solve(all).per_processor.size(), 2u) << "JSON always carries them";
  ReportOptions options;
  options.per_processor = parse_processor_list("1");
  Report one = SampleRun().build(options);
  EXPECT_TRUE(one.show_per_processor);
  ASSERT_EQ(solve(one).per_processor.size(), 1u);
  EXPECT_EQ(solve(one).per_processor[0].processor, 1);
  EXPECT_NEAR(solve(one).per_processor[0].execution_time, 0.180, 1e-9);
  EXPECT_EQ(solve(one).comparative[analysis::Figure::execution_time].min_processor, 0)
      << "the comparative figures still cover every processor";
}

TEST(report_builder, TheRunSummarySaysHowEachProfileEnded) {
  SampleRun sample;
  sample.run.profiles[0].process.end_reason = format::EndReason::signal;
  sample.run.profiles[0].process.end_signal = 6;
  sample.run.profiles[0].process.dropped_intervals = 3;
  sample.run.warnings.push_back("profile.1.ppf: missing (the run has 2 processes)");
  RunSummary summary = sample.build().run;
  EXPECT_EQ(summary.directory, "/runs/sample");
  EXPECT_EQ(summary.command, "./sample --size 10");
  EXPECT_EQ(summary.processes, 1);
  EXPECT_EQ(summary.threads, 2u);
  ASSERT_EQ(summary.end_reasons.size(), 1u);
  EXPECT_EQ(summary.end_reasons[0].reason, format::EndReason::signal);
  EXPECT_EQ(summary.end_reasons[0].signal, 6u);
  EXPECT_EQ(summary.end_reasons[0].file, "profile.0.ppf");
  ASSERT_EQ(summary.warnings.size(), 2u);
  EXPECT_NE(summary.warnings[1].find("3 interval entries were not recorded"), std::string::npos);
}

TEST(report_builder, TheCommandComesFromRunJsonWhenTheProfileHasNone) {
  SampleRun sample;
  sample.run.profiles[0].process.command_line.clear();
  sample.run.run_info = format::RunInfo{};
  sample.run.run_info->command = {"./app", "-x"};
  EXPECT_EQ(sample.build().run.command, "./app -x");
}

}  // namespace
}  // namespace parperf::report
