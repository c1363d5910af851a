// Scenario: a measured program behaves as it does unmeasured (step_temporaries.c).
//
// The program allocates temporaries of 0.3 to 2.7 MB in every step and frees them; glibc gives their
// pages back at each free, so each step faults them in again: about 1 600 minor page faults a step
// (66 000 for 40 steps on the development machine). A construct first met in step 3 makes the
// runtime set up new state while those temporaries lie on top of the heap. A runtime that took that
// memory from the program's malloc left small blocks above the temporaries, the heap could no longer
// shrink, and the measured program stopped faulting: 8 200 faults and a quarter of the CPU time —
// parperf reported a program 4x faster than the real one. The runtime now takes its memory from
// private mappings, so the measured run must fault as often as the plain one.
//
// The plain run preloads LLVM's libomp, as `parperf run` does for a gcc-built program (it swaps
// libomp in for libgomp): the comparison isolates the runtime, not the OpenMP runtime's change.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/machine_load.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::string kProgram = PARPERF_PROGRAM_STEP_TEMPORARIES_GCC;
const std::string kLibomp = PARPERF_TEST_LIBOMP;
constexpr int kSteps = 40;

struct Figures {
  double faults = 0;
  double cpu_seconds = 0;
  double wall_seconds = 0;
};

Figures figures_of(const ProcessResult& result) {
  Figures f;
  long faults = 0;
  double cpu = 0;
  if (std::sscanf(result.out.c_str(), "faults %ld cpu %lf", &faults, &cpu) != 2)
    ADD_FAILURE() << "the program printed no figures:\n" << describe(result);
  f.faults = static_cast<double>(faults);
  f.cpu_seconds = cpu;
  f.wall_seconds = result.wall_seconds;
  return f;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

TEST(AllocatorUnchanged, MeasuredProgramFaultsAndRunsAsThePlainOne) {
  if (kLibomp.empty()) GTEST_SKIP() << "libomp was not found at build time";
  TempDir tmp;
  const MachineLoad load;
  ProcessOptions options;
  options.env = {{"OMP_NUM_THREADS", "2"}};
  ProcessOptions plain_options = options;
  plain_options.env.emplace_back("LD_PRELOAD", kLibomp);
  std::vector<double> plain_faults, measured_faults, plain_wall, measured_wall;
  for (int round = 0; round < 3; ++round) {  // interleaved, so a burst of load hits both alike
    const auto plain = run_process({kProgram, std::to_string(kSteps)}, plain_options);
    ASSERT_EQ(plain.exit_code, 0) << describe(plain);
    const auto measured =
        measure(tmp / ("run" + std::to_string(round)), {kProgram, std::to_string(kSteps)}, options);
    ASSERT_EQ(measured.exit_code, 0) << describe(measured);
    const Figures p = figures_of(plain), m = figures_of(measured);
    plain_faults.push_back(p.faults), measured_faults.push_back(m.faults);
    plain_wall.push_back(p.wall_seconds), measured_wall.push_back(m.wall_seconds);
  }
  const double plain = median(plain_faults), measured = median(measured_faults);
  // The runtime's own pages (thread state, interval nodes, the profile writer's buffers) add a few
  // hundred faults; the program's own pattern gives ~1 600 a step, so losing (or adding) even one
  // step's worth falls outside the bound.
  EXPECT_NEAR(measured, plain, 0.05 * plain + 800)
      << "minor page faults: " << measured << " measured, " << plain << " plain: parperf changed how the "
      << "program's memory is served (expected within 5 % + 800 faults)";
  // Wall time: the page faults are most of this program's time, so a measured run that no longer
  // faults is much faster. A generous bound, since two programs timing each other on 2 cores are
  // noisy; the faults above are the precise check.
  const double plain_s = median(plain_wall), measured_s = median(measured_wall);
  EXPECT_GT(measured_s, 0.6 * plain_s)
      << "measured " << measured_s << " s, plain " << plain_s
      << " s: the measured program ran much faster than the real one; " << load.describe();
  EXPECT_LT(measured_s, 2.0 * plain_s + 0.2)
      << "measured " << measured_s << " s, plain " << plain_s << " s; " << load.describe();
}

// The OpenMP runtime swap is a change of its own: the report must say the program ran on libomp.
TEST(AllocatorUnchanged, TheReportSaysTheProgramRanOnLibompInsteadOfLibgomp) {
  if (kLibomp.empty()) GTEST_SKIP() << "libomp was not found at build time";
  TempDir tmp;
  ProcessOptions options;
  options.env = {{"OMP_NUM_THREADS", "2"}};
  const auto result = measure(tmp / "run", {kProgram, "2"}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(report_json(tmp / "run")["run"]["openmp_runtime_substituted"], true);
  const auto text = run_process({parperf_command().string(), "report", (tmp / "run").string()});
  EXPECT_NE(text.out.find("ran on LLVM libomp instead of GNU libgomp"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace parperf::test
