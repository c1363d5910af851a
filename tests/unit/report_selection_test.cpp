// The report's selection options: --procs lists, interval name globs and comma-separated lists.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "report/interval_selection.hpp"
#include "report/processor_list.hpp"

namespace parperf::report {
namespace {

TEST(report_selection, ProcessorListsTakeNumbersAndRanges) {
  ProcessorSelection s = parse_processor_list("0, 2-3,7");
  EXPECT_FALSE(s.all);
  for (std::int64_t p : {0, 2, 3, 7}) EXPECT_TRUE(s.includes(p)) << "processor " << p << " is in 0,2-3,7";
  for (std::int64_t p : {1, 4, 6, 8})
    EXPECT_FALSE(s.includes(p)) << "processor " << p << " is not in 0,2-3,7";
  EXPECT_TRUE(ProcessorSelection{}.includes(12345)) << "--per-proc selects every processor";
}

TEST(report_selection, AHugeRangeCostsNothing) {
  EXPECT_TRUE(parse_processor_list("0-9000000000000").includes(8'999'999'999'999));
}

TEST(report_selection, BadProcessorListsAreRejectedWithTheBadItem) {
  for (const char* bad : {"", "x", "1,", "3-1", "-2", "1-x", "1.5", "2--3"}) {
    try {
      parse_processor_list(bad);
      ADD_FAILURE() << "--procs '" << bad << "' was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("--procs: '", 0), 0u) << e.what();
    }
  }
}

TEST(report_selection, GlobsMatchWholeNames) {
  EXPECT_TRUE(glob_matches("solve*", "solve_x"));
  EXPECT_TRUE(glob_matches("*x*", "max"));
  EXPECT_TRUE(glob_matches("step?", "step1"));
  EXPECT_TRUE(glob_matches("[ab]c", "bc"));
  EXPECT_FALSE(glob_matches("solve", "solver")) << "a glob without '*' matches the whole name only";
  EXPECT_TRUE(glob_matches("io*", "io/read")) << "'*' also spans '/'";
}

TEST(report_selection, NameListsSplitOnCommas) {
  EXPECT_EQ(split_names("solve*, init ,,x"), (std::vector<std::string>{"solve*", "init", "x"}));
  EXPECT_TRUE(split_names("").empty());
}

}  // namespace
}  // namespace parperf::report
