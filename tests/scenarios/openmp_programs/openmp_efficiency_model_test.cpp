// The POP factors of OpenMP programs whose chains and imbalance are known by construction
// (pop_openmp.c, built with clang and gcc), from `parperf run --trace` and `parperf report --json`'s
// `pop`. Tolerances as in mpi_efficiency_model_test.cpp: the programs sleep for their work and print
// what they really did; the factors are checked against those figures within 0.03 (what parperf counts
// beside the sleeps: the loop, the runtime's hand-overs of a few µs against units of 20 ms), and the
// ordered chain against its constructed 1/2 within 0.1.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <regex>
#include <string>

#include "compiler_names.hpp"
#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

struct TracedRun {
  std::vector<double> work;  // per thread, as the program measured it
  json pop;
};

TracedRun traced(const TempDir& tmp, const std::string& program, const std::string& mode) {
  const ProcessResult result = run_process({parperf_command().string(), "run", "-q", "--trace", "-o",
                                            (tmp / "run").string(), "--", program, mode});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  TracedRun run;
  const std::regex line(R"(work ([0-9.]+) s)");
  for (std::sregex_iterator it(result.err.begin(), result.err.end(), line), end; it != end; ++it)
    run.work.push_back(std::stod((*it)[1]));
  run.pop = field(report_json(tmp / "run"), "pop");
  return run;
}

class PopOpenMP : public testing::TestWithParam<const char*> {};

TEST_P(PopOpenMP, AnOrderedChainIsSerialisationNotImbalance) {
  TempDir tmp;
  const TracedRun run = traced(tmp, GetParam(), "ordered");
  ASSERT_EQ(run.work.size(), 2u);
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double all = std::accumulate(run.work.begin(), run.work.end(), 0.0);
  EXPECT_NEAR(number(run.pop, "serialisation_efficiency"), most / all, 0.03) << run.pop.dump();
  // Nominally 1/2: each thread sleeps 4 of the 8 blocks. A loaded machine wakes each sleep up to a
  // scheduling period late (12 ms), which the program counts as its work: the longest thread's share
  // can rise by 4 such periods over all the work.
  const double oversleep = 4 * 0.012 / all;
  EXPECT_NEAR(number(run.pop, "serialisation_efficiency"), 0.5, 0.1 + oversleep) << run.pop.dump();
  EXPECT_GT(number(run.pop, "load_balance"), 0.9 - oversleep) << "both threads run 4 of the 8 ordered blocks";
}

TEST_P(PopOpenMP, UnevenTasksAreLoadImbalance) {
  TempDir tmp;
  const TracedRun run = traced(tmp, GetParam(), "tasks");
  ASSERT_EQ(run.work.size(), 2u);
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double mean = std::accumulate(run.work.begin(), run.work.end(), 0.0) / 2;
  EXPECT_NEAR(number(run.pop, "load_balance"), mean / most, 0.03)
      << "the tasks each thread ran, against the load balance: " << run.pop.dump();
  EXPECT_LT(number(run.pop, "load_balance"), 0.9) << "a 5-unit task of 8 units of work cannot be balanced";
  EXPECT_GT(number(run.pop, "serialisation_efficiency"), 0.9) << run.pop.dump();
}

// Phases made with parperf_control: an uneven parallel region, a pause, the ordered chain.
TEST_P(PopOpenMP, EachPhaseBetweenSwitchesOfRecordingHasItsOwnFactors) {
  TempDir tmp;
  // Units of 60 ms: between a thread's own measurement of its work and its next event, a loaded machine
  // can take the core away for a scheduling period (12 ms: CFS's 6 ms x (1 + log2 2) on 2 cores, plus
  // the virtual machine's steal), which parperf counts as that thread's useful time. On the first
  // phase's shortest thread (1 unit of a mean of 2 over a longest of 3) that moves the load balance by
  // 12 ms / (2 x 3 units): 0.033 at 60 ms, where 20 ms units gave 0.1.
  constexpr int kUnitMs = 60;
  constexpr double kWakeUpS = 0.012;
  const ProcessResult result =
      run_process({parperf_command().string(), "run", "-q", "--trace", "-o", (tmp / "run").string(), "--",
                   GetParam(), "phases", std::to_string(kUnitMs)});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  double work[2][2] = {{0, 0}, {0, 0}};  // [phase][thread]
  const std::regex line(R"(thread ([01]) phase ([12]) did ([0-9.]+) s)");
  for (std::sregex_iterator it(result.err.begin(), result.err.end(), line), end; it != end; ++it)
    work[std::stoi((*it)[2]) - 1][std::stoi((*it)[1])] = std::stod((*it)[3]);
  const json pop = field(report_json(tmp / "run"), "pop");
  const json& phases = field(pop, "phases");
  ASSERT_EQ(phases.size(), 2u) << "two spans of recording, parperf_control(0) and (1) between them: "
                               << pop.dump();
  const double most0 = std::max(work[0][0], work[0][1]);
  EXPECT_NEAR(number(phases[0], "load_balance"), (work[0][0] + work[0][1]) / 2 / most0,
              std::max(0.03, kWakeUpS / (2 * most0)))
      << "the threads' work as they measured it: " << work[0][0] << " and " << work[0][1] << " s; "
      << phases[0].dump();
  EXPECT_NEAR(number(phases[0], "load_balance"), 2.0 / 3, 0.1) << phases[0].dump();
  EXPECT_GT(number(phases[0], "serialisation_efficiency"), 0.9) << phases[0].dump();
  EXPECT_NEAR(number(phases[1], "serialisation_efficiency"), 0.5, 0.1)
      << "the ordered chain of the second phase: " << phases[1].dump();
  EXPECT_GT(number(phases[1], "load_balance"), 0.9) << phases[1].dump();
  EXPECT_GT(number(pop, "paused_time"), 0.9 * 2 * kUnitMs * 1e-3)
      << "the 2 units of the pause are in no phase";
}

INSTANTIATE_TEST_SUITE_P(Compilers, PopOpenMP,
                         testing::Values(PARPERF_PROGRAM_POP_OPENMP_CLANG, PARPERF_PROGRAM_POP_OPENMP_GCC),
                         clang_or_gcc);

}  // namespace
}  // namespace parperf::test
