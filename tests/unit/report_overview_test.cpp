// The overview that opens the text report: the findings, one row per interval indented by nesting
// with its largest loss, the cut of long tables with the line that says how to see the rest, and
// colour only when asked. Reports are built by hand, so every expected row follows from the
// figures put in.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "format/site_kinds.hpp"
#include "report/interval_overview.hpp"
#include "report/text_protocol.hpp"
#include "unit/report_text_options.hpp"

namespace parperf::report {
namespace {

testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "the report lacks \"" << part << "\":\n" << text;
}

ReportInterval interval(std::uint32_t kind, const std::string& name, std::int64_t line, double execution,
                        std::uint64_t processors, double lost) {
  ReportInterval i;
  i.identity = {kind, name, line == 0 ? "" : "heat.c", line, 0};
  i.count = processors;
  analysis::Characteristics& c = i.characteristics;
  c.execution_time = execution;
  c.processors = processors;
  c.total_time = execution * static_cast<double>(processors);
  c.lost_time = c.idle_time = lost;
  c.productive_time = c.total_time - lost;
  c.efficiency = c.total_time > 0 ? c.productive_time / c.total_time : 1;
  return i;
}

constexpr auto kProgram = static_cast<std::uint32_t>(format::SiteKind::program);
constexpr auto kUser = static_cast<std::uint32_t>(format::SiteKind::user);
constexpr auto kParallelLoop = static_cast<std::uint32_t>(format::SiteKind::parallel_loop);

// program (1 s on 2 processors, 1.2 s idle) > solve (0.6 s, 0.3 s idle) > loop "rows" (0.4 s, 0.1 s
// of desync), and an "output" of 0.2 s that lost nothing.
Report three_levels() {
  Report report;
  report.run.directory = "/runs/heat";
  report.run.processes = 1;
  report.run.world_size = 1;
  ReportInterval program = interval(kProgram, "heat", 0, 1.0, 2, 1.2);
  ReportInterval solve = interval(kUser, "solve", 40, 0.6, 2, 0.3);
  solve.level = 1;
  ReportInterval rows = interval(kParallelLoop, "rows", 57, 0.4, 2, 0.1);
  rows.level = 2;
  rows.count = 200;
  rows.characteristics.idle_time = 0.02;
  rows.characteristics.desync = 0.08;
  solve.children.push_back(rows);
  ReportInterval output = interval(kUser, "output", 90, 0.2, 1, 0);
  output.level = 1;
  output.open = true;
  program.children = {solve, output};
  report.intervals.push_back(program);
  return report;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// The rows of the interval table: the lines after its column heads, up to the blank line.
std::vector<std::string> interval_rows(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  auto head = std::find_if(lines.begin(), lines.end(),
                           [](const std::string& l) { return l.find("largest loss") != std::string::npos; });
  std::vector<std::string> rows;
  if (head == lines.end()) return rows;
  for (auto l = head + 1; l != lines.end() && !l->empty(); ++l) rows.push_back(*l);
  return rows;
}

TEST(report_overview, OneRowPerIntervalIndentedByNesting) {
  const std::string text = render_text(three_levels());
  const std::vector<std::string> rows = interval_rows(text);
  ASSERT_EQ(rows.size(), 4u) << text;
  EXPECT_EQ(rows[0],
            "      1.00 s       40.0%      1.20 s  idle 1.20 s                       2  program \"heat\"");
  EXPECT_EQ(rows[1],
            "      600 ms       75.0%      300 ms  idle 300 ms                       2    user \"solve\"  "
            "heat.c:40");
  EXPECT_EQ(rows[2],
            "      400 ms       87.5%      100 ms  desync 80 ms                    200      parallel loop "
            "\"rows\"  "
            "heat.c:57")
      << "the largest part of the lost time is named, not the first";
  EXPECT_EQ(rows[3],
            "      200 ms      100.0%           0  -                                 1    user \"output\"  "
            "heat.c:90  "
            "OPEN");
  EXPECT_FALSE(contains(text, "== INTERVAL ")) << "no per-interval protocol without --details";
}

TEST(report_overview, TheLargestLossIsNamedByItsKind) {
  analysis::Characteristics c;
  EXPECT_EQ(largest_loss_text(c), "-") << "nothing lost";
  c.idle_time = 0.0646;
  EXPECT_EQ(largest_loss_text(c), "idle 64.6 ms");
  c.insufficient_parallelism = 3.2;
  EXPECT_EQ(largest_loss_text(c), "insufficient par. 3.20 s");
  c.communication = 4;
  EXPECT_EQ(largest_loss_text(c), "communication 4.00 s");
  c.waiting = 5;
  EXPECT_EQ(largest_loss_text(c), "waiting 5.00 s");
  c.desync = 6;
  EXPECT_EQ(largest_loss_text(c), "desync 6.00 s");
}

TEST(report_overview, TheFindingsComeFirstNumbered) {
  Report report = three_levels();
  EXPECT_TRUE(contains(render_text(report), "== FINDINGS, worst first\n  none stands out"));
  report.summary = {"the loop \"rows\" waits", "solve is sequential"};
  const std::string text = render_text(report);
  EXPECT_TRUE(
      contains(text, "== FINDINGS, worst first\n  1. the loop \"rows\" waits\n  2. solve is sequential\n"));
  EXPECT_LT(text.find("== FINDINGS"), text.find("== INTERVALS")) << "the answer before the table";
}

// A program with 3 regions of 20 loops each: 64 intervals. Loop c of region r costs (60 - 3c - r)
// ms on one processor, so the 36 most expensive loops are those with 3c + r < 36 (c < 12).
Report many_intervals() {
  Report report = three_levels();
  ReportInterval& program = report.intervals[0];
  program.children.clear();
  for (int r = 0; r < 3; ++r) {
    ReportInterval region = interval(kUser, "region" + std::to_string(r), 10 + r, 0.9 - 0.1 * r, 1, 0);
    region.level = 1;
    for (int c = 0; c < 20; ++c) {
      ReportInterval loop = interval(kParallelLoop, "r" + std::to_string(r) + "loop" + std::to_string(c),
                                     100 + c, (60 - 3 * c - r) * 1e-3, 1, 0);
      loop.level = 2;
      region.children.push_back(loop);
    }
    program.children.push_back(region);
  }
  return report;
}

TEST(report_overview, ALongTableKeepsTheMostExpensiveIntervalsWithTheirAncestors) {
  const std::string text = render_text(many_intervals());
  const std::vector<std::string> rows = interval_rows(text);
  ASSERT_EQ(rows.size(), 41u) << "40 intervals and the line about the rest:\n" << text;
  EXPECT_EQ(rows[40],
            "  … 24 more: parperf report --rows all lists every interval, --level 1 the top 2 levels");
  EXPECT_TRUE(contains(text, "\"r0loop0\"")) << "the most expensive loop";
  EXPECT_TRUE(contains(text, "\"r2loop11\"")) << "3 * 11 + 2 = 35 < 36";
  EXPECT_FALSE(contains(text, "\"r0loop12\"")) << "3 * 12 = 36: the 37th loop";
  EXPECT_FALSE(contains(text, "\"r2loop19\"")) << "the cheapest";
  // The tree stays readable: a loop's row follows its region's (pre-order).
  const auto region2 = text.find("\"region2\"");
  EXPECT_LT(text.find("\"region1\""), region2);
  EXPECT_LT(text.find("\"r1loop11\""), region2);
  EXPECT_GT(text.find("\"r2loop0\""), region2);

  TextOptions all;
  all.rows = TableRows::all();
  EXPECT_EQ(interval_rows(render_text(many_intervals(), all)).size(), 64u);
  EXPECT_EQ(interval_rows(render_text(many_intervals(), test::with_details())).size(), 64u)
      << "--details prints everything";
  TextOptions five;
  five.rows = TableRows::each(5);
  EXPECT_EQ(interval_rows(render_text(many_intervals(), five)).back(),
            "  … 59 more: parperf report --rows all lists every interval, --level 1 the top 2 levels")
      << "--level 1 shows 4 intervals, the tree's top whole";
  five.rows = TableRows::each(3);
  EXPECT_EQ(interval_rows(render_text(many_intervals(), five)).back(),
            "  … 61 more: parperf report --rows all lists every interval")
      << "--level 1 would need 4 rows";
}

TEST(report_overview, AnExpensiveIntervalUnderACheapParentKeepsItsParent) {
  Report report = three_levels();
  // solve's figures say it cost less than the loop inside it (possible with --unit rank, where a
  // process's loop time is its threads' longest): the loop still needs its parent to sit under.
  ReportInterval& solve = report.intervals[0].children[0];
  solve.characteristics.total_time = 0.01;
  TextOptions three;
  three.rows = TableRows::each(3);
  const std::vector<std::string> rows = interval_rows(render_text(report, three));
  ASSERT_EQ(rows.size(), 4u) << render_text(report, three);
  EXPECT_TRUE(contains(rows[1], "user \"solve\""));
  EXPECT_TRUE(contains(rows[2], "parallel loop \"rows\""));
  EXPECT_EQ(rows[3],
            "  … 1 more: parperf report --rows all lists every interval, --level 1 the top 2 levels");
}

TEST(report_overview, TheSrcPointsAreCutToo) {
  Report report = three_levels();
  report.program_total_time = 2;
  for (int i = 0; i < 15; ++i) {
    analysis::SrcPoint point;
    point.identity.name = "critical";
    point.identity.kind = static_cast<std::uint32_t>(format::SiteKind::omp_critical);
    point.identity.file = "heat.c";
    point.identity.line = 200 + i;
    point.count = 1;
    point.wait = point.total = 0.1 - i * 0.001;
    report.src_points.push_back(point);
  }
  const std::string text = render_text(report);
  EXPECT_TRUE(contains(text, "heat.c:209")) << "the 10th";
  EXPECT_FALSE(contains(text, "heat.c:210")) << "the 11th";
  EXPECT_TRUE(contains(text, "  … 5 more: parperf report --rows all lists every SRC point\n"));
  EXPECT_TRUE(contains(render_text(report, test::with_details()), "heat.c:214"));
}

TEST(report_overview, DetailsFollowTheOverview) {
  const std::string text = render_text(three_levels(), test::with_details());
  EXPECT_LT(text.find("== INTERVALS"), text.find("== INTERVAL program \"heat\""));
  for (const char* name : {"program \"heat\"", "user \"solve\"", "parallel loop \"rows\"", "user \"output\""})
    EXPECT_TRUE(contains(text, std::string("== INTERVAL ") + name));
  EXPECT_TRUE(contains(text, "--- main characteristics ---"));
}

TEST(report_overview, ColourOnlyWhenAsked) {
  const std::string plain = render_text(three_levels());
  EXPECT_EQ(plain.find('\x1b'), std::string::npos) << "an escape in a report without colour";
  TextOptions colour;
  colour.colour = true;
  const std::string coloured = render_text(three_levels(), colour);
  EXPECT_TRUE(contains(coloured, "\x1b[1m== INTERVALS")) << "bold headings";
  EXPECT_TRUE(contains(coloured, "\x1b[31m     40.0%\x1b[0m")) << "red below 50%";
  EXPECT_TRUE(contains(coloured, "\x1b[33m     75.0%\x1b[0m")) << "yellow below 80%";
  EXPECT_TRUE(contains(coloured, "      87.5%")) << "no colour from 80%";
  EXPECT_FALSE(contains(coloured, "\x1b[33m     87.5%"));
  EXPECT_TRUE(contains(coloured, "\x1b[2mheat.c:40\x1b[0m")) << "dim sources";
  EXPECT_TRUE(contains(coloured, "\x1b[31mOPEN\x1b[0m"));
}

}  // namespace
}  // namespace parperf::report
