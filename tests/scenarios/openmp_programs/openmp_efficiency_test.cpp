// The OpenMP characteristics against programs whose losses are known by construction (each
// program's header states its ground truth). Every C program runs in its clang build (libomp
// directly) and its gcc build (libgomp, replaced by libomp under `parperf run`).
//
// Bounds: a wall-clock busy wait lasts at least what it asks for, so measured waits can only exceed
// the constructed ones by scheduling delays; the upper bounds allow 40 ms of those per run.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

// The line of the source that carries the marker comment /* SITE:<name> */.
std::int64_t site_line(const std::string& source, const std::string& name) {
  std::ifstream in(std::string(OPENMP_PROGRAMS_SOURCE_DIR) + "/" + source);
  std::string text;
  const std::string marker = "/* SITE:" + name + " */";
  for (std::int64_t line = 1; std::getline(in, text); ++line)
    if (text.find(marker) != std::string::npos) return line;
  ADD_FAILURE() << "no marker " << marker << " in " << source;
  return -1;
}

std::string basename_of(const json& value) {
  return value.is_string() ? std::filesystem::path(value.get<std::string>()).filename().string() : "";
}

json measure_report(const TempDir& tmp, const std::string& program,
                    const std::vector<std::string>& arguments) {
  std::vector<std::string> command{program};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const auto result = measure(tmp / "run", command);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  return report_json(tmp / "run");
}

// The SRC point that loses the most, with the source line its description names.
struct WorstPoint {
  json point;
  std::int64_t line = 0;
  std::string file;
};

WorstPoint worst_point(const json& report) {
  WorstPoint worst;
  if (!report.contains("src_points") || report["src_points"].empty()) {
    ADD_FAILURE() << "no SRC points in " << report.dump(2);
    return worst;
  }
  worst.point = report["src_points"][0];
  const json& combined = worst.point["combined_construct"];
  const json& where = combined.is_object() ? combined : worst.point;
  worst.line = where["line"].get<std::int64_t>();
  worst.file = basename_of(where["file"]);
  return worst;
}

class OpenMPEfficiency : public ::testing::TestWithParam<std::string> {
 protected:
  std::string program(const std::string& name) const {
    return GetParam() == "gcc" ? gcc_build(name) : clang_build(name);
  }
  static std::string clang_build(const std::string& name) {
    if (name == "triangular_loop") return PARPERF_PROGRAM_TRIANGULAR_LOOP_CLANG;
    if (name == "serial_section") return PARPERF_PROGRAM_SERIAL_SECTION_CLANG;
    return PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG;
  }
  static std::string gcc_build(const std::string& name) {
    if (name == "triangular_loop") return PARPERF_PROGRAM_TRIANGULAR_LOOP_GCC;
    if (name == "serial_section") return PARPERF_PROGRAM_SERIAL_SECTION_GCC;
    return PARPERF_PROGRAM_SYNC_CONSTRUCTS_GCC;
  }
};

// schedule(static) over iterations of 1..16 ms: thread 0 works 36 ms and waits 64 ms per repetition
// at the loop's implicit barrier (for `parallel for`, the end of the region).
TEST_P(OpenMPEfficiency, StaticTriangularLoopLosesItsImbalanceAtTheLoopsBarrier) {
  TempDir tmp;
  const json report = measure_report(tmp, program("triangular_loop"), {"3", "static"});
  const json* program_interval = find_interval(report, "program");
  ASSERT_NE(program_interval, nullptr);
  const double desync = number(*program_interval, "desync_time");
  EXPECT_GE(desync, 3 * 0.064 - 0.010) << "3 repetitions x 64 ms that thread 0 waits for thread 1";
  EXPECT_LE(desync, 3 * 0.064 + 0.040);
  EXPECT_NEAR(number(*program_interval, "efficiency"), 136.0 / 200.0, 0.06)
      << "136 ms of work in 2 x 100 ms per repetition";

  const WorstPoint worst = worst_point(report);
  EXPECT_EQ(worst.file, "triangular_loop.c");
  EXPECT_EQ(worst.line, site_line("triangular_loop.c", "static_loop"))
      << "the loss belongs to the loop's implicit barrier: " << worst.point.dump(2);
  EXPECT_NEAR(number(worst.point, "sync"), desync, 0.005) << "it is where all the desync time is";
  EXPECT_GT(number(worst.point, "imbalance"), 1.25) << "max/mean of 100 and 36 ms is 1.47";
  ASSERT_FALSE(report["summary"].empty());
  EXPECT_NE(report["summary"][0].get<std::string>().find(
                "triangular_loop.c:" + std::to_string(site_line("triangular_loop.c", "static_loop"))),
            std::string::npos)
      << report["summary"].dump(2);
}

TEST_P(OpenMPEfficiency, DynamicScheduleOfTheSameLoopIsClearlyMoreEfficient) {
  TempDir static_tmp, dynamic_tmp;
  const json static_report = measure_report(static_tmp, program("triangular_loop"), {"3", "static"});
  const json dynamic_report = measure_report(dynamic_tmp, program("triangular_loop"), {"3", "dynamic"});
  const double static_efficiency = number(*find_interval(static_report, "program"), "efficiency");
  const double dynamic_efficiency = number(*find_interval(dynamic_report, "program"), "efficiency");
  EXPECT_GT(dynamic_efficiency, static_efficiency + 0.15)
      << "dynamic,1 leaves at most one iteration of imbalance (about 94 % against 68 %)";
}

// 100 ms on the master between two parallel regions of 2 threads: the other thread is idle for it.
TEST_P(OpenMPEfficiency, SerialSectionIsInsufficientParallelismOfThreadsMinusOneTimesItsLength) {
  TempDir tmp;
  const json report = measure_report(tmp, program("serial_section"), {"1"});
  const json* program_interval = find_interval(report, "program");
  ASSERT_NE(program_interval, nullptr);
  EXPECT_EQ((*program_interval)["processors"], 2);
  const double insufficient = number(*program_interval, "insufficient_parallelism");
  EXPECT_GE(insufficient, 0.100 - 0.005) << "(2 - 1) threads x 100 ms of serial code";
  EXPECT_LE(insufficient, 0.100 + 0.040) << "plus only the program's start-up before the first region";
  EXPECT_LT(number(*program_interval, "idle_time"), 0.020) << "the worker's absence is not idleness";
}

INSTANTIATE_TEST_SUITE_P(Compilers, OpenMPEfficiency, ::testing::Values("clang", "gcc"),
                         [](const auto& compiler) { return compiler.param; });

}  // namespace
}  // namespace parperf::test
