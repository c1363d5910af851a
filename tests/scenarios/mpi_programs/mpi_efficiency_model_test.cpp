// The POP factors, the critical path, the delay costs and the what-if replay (`parperf report
// --json`'s `pop`, `critical_path`, `delay_costs`; `parperf whatif --json`) on the constructed cases
// of pop_cases.c and pop_hybrid.c (their headers give the ground truth), run with `parperf run --np N
// --trace`.
//
// Tolerances. The programs sleep for their work, and on 2 busy cores a sleep lasts longer than asked
// (a rank wakes up late). Each program therefore prints the work each rank or thread really did,
// measured around its sleeps; the factors are checked against the values those give within 0.03 (what
// parperf counts beside the sleeps: a loop, an interval's probes, MPI call overheads of microseconds
// against units of 40 ms), and against the constructed value within 0.1, which still tells each
// case from its neighbours (0.571 from 0.667, 0.25 from 0.5). The what-if predictions are compared
// with measured runs within 10 %, as the issue sets them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <string>

#include "analysis/trace/operations_trace.hpp"
#include "format/trace_file.hpp"
#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/otf2_listing.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

constexpr const char* kUnitMs = "40";

struct TracedRun {
  std::filesystem::path directory;
  std::vector<double> work;  // per rank (or rank and thread), as the program measured it
  json report;
};

TracedRun traced(const TempDir& tmp, const std::string& name, int ranks,
                 const std::vector<std::string>& program, bool trace = true) {
  TracedRun run;
  run.directory = tmp / name;
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const ProcessResult result = parperf_run_np_with(
      ranks, run.directory, trace ? std::vector<std::string>{"--trace"} : std::vector<std::string>{}, program,
      options);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  const std::regex line(R"(work ([0-9.]+) s)");
  for (std::sregex_iterator it(result.err.begin(), result.err.end(), line), end; it != end; ++it)
    run.work.push_back(std::stod((*it)[1]));
  run.report = report_json(run.directory);
  return run;
}

double mean_over_max(const std::vector<double>& v) {
  if (v.empty()) return 0;
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()) /
         *std::max_element(v.begin(), v.end());
}

const json& pop(const TracedRun& run) { return field(run.report, "pop"); }

// How late a woken rank may get a core back: a scheduling period of 2 cores shared with the other test
// ctest -j2 runs (12 ms: CFS's 6 ms x (1 + log2 2), or several EEVDF slices, plus the virtual machine's
// steal; 7.6 ms on average seen, 38 ms over 5 wake-ups of a 0.21 s run).
constexpr double kWakeUpS = 0.012;

// The replay of the unchanged run gives its time back within 3 % (the issue's self-check), or within
// 10 ms on these runs of a fraction of a second: its network model is fitted from a handful of messages
// whose times hold their receivers' wake-ups (up to a few ms each on 2 busy cores), and the replay adds
// that fitted latency at each of the few crossings the run's path has (8 ms seen on a 0.17 s chain).
void expect_self_check(const std::filesystem::path& directory) {
  const json w = whatif_json(directory, {});
  const double measured = number(w, "measured_time");
  EXPECT_NEAR(number(w, "replayed_time"), measured, std::max(0.03 * measured, 0.010))
      << "the replay of the unchanged run does not give the run's time back: " << w.dump();
}

// `parperf report --json --np 2 DIR`: the analysis by parts, in a job of its own.
json report_json_np2(const std::filesystem::path& directory) {
  ProcessOptions launcher;
  launcher.timeout_seconds = kMpiTimeoutSeconds;
  launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  const ProcessResult np = run_process(
      {parperf_command().string(), "report", "--json", "--np", "2", directory.string()}, launcher);
  EXPECT_EQ(np.exit_code, 0) << describe(np);
  return json::parse(np.out, nullptr, false);
}

class Imbalance : public testing::TestWithParam<int> {};

TEST_P(Imbalance, LoadBalanceIsMeanOverMaxOfTheRanksWorkAndNothingElseIsLost) {
  const int ranks = GetParam();
  TempDir tmp;
  const TracedRun run = traced(tmp, "run", ranks, {PARPERF_PROGRAM_MPI_POP_CASES, "imbalance", kUnitMs, "2"});
  ASSERT_EQ(run.work.size(), static_cast<std::size_t>(ranks));
  const double constructed = static_cast<double>(ranks) / (2.0 * ranks - 1);
  const double lb = number(pop(run), "load_balance");
  EXPECT_NEAR(lb, mean_over_max(run.work), 0.03)
      << "load balance against the ranks' own work: " << pop(run).dump();
  EXPECT_NEAR(lb, constructed, 0.1) << pop(run).dump();
  EXPECT_GT(number(pop(run), "serialisation_efficiency"), 0.95) << "nothing waits but for the imbalance";
  EXPECT_GT(number(pop(run), "transfer_efficiency"), 0.95);
  EXPECT_NEAR(number(pop(run), "parallel_efficiency"),
              lb * number(pop(run), "serialisation_efficiency") * number(pop(run), "transfer_efficiency"),
              1e-6)
      << "PE = LB x SerE x TransE";
  // The last rank's work makes the others wait: the delay costs name it and its interval.
  const json& causes = field(field(run.report, "delay_costs"), "causes");
  ASSERT_FALSE(causes.empty()) << run.report["delay_costs"].dump();
  EXPECT_EQ(integer(causes[0], "rank"), ranks - 1);
  EXPECT_EQ(text_of(causes[0], "interval"), "work");
  bool named = false;
  for (const json& finding : run.report["findings"])
    named |= finding.value("rule", "") == "delay_cause" &&
             finding.value("text", "").find("rank " + std::to_string(ranks - 1) + "'s interval \"work\"") !=
                 std::string::npos &&
             finding["replayed_gain"].is_number();
  EXPECT_TRUE(named) << "no delay_cause finding names rank " << ranks - 1
                     << "'s 'work' with the replay's gain: " << run.report["findings"].dump();
  expect_self_check(run.directory);
}

INSTANTIATE_TEST_SUITE_P(Ranks, Imbalance, testing::Values(2, 4));

class Chain : public testing::TestWithParam<int> {};

TEST_P(Chain, SerialisationIsOneStageOverTheStagesOfAllRanks) {
  const int ranks = GetParam();
  TempDir tmp;
  constexpr int kRounds = 2;
  const TracedRun run =
      traced(tmp, "run", ranks, {PARPERF_PROGRAM_MPI_POP_CASES, "chain", kUnitMs, std::to_string(kRounds)});
  ASSERT_EQ(run.work.size(), static_cast<std::size_t>(ranks));
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double all = std::accumulate(run.work.begin(), run.work.end(), 0.0);
  const double ser = number(pop(run), "serialisation_efficiency");
  EXPECT_NEAR(ser, most / all, 0.03) << pop(run).dump();
  EXPECT_NEAR(ser, 1.0 / ranks, 0.1) << pop(run).dump();
  EXPECT_GT(number(pop(run), "load_balance"), 0.9);
  // 4-byte tokens cost no transfer; what the ideal network removes is the wait, on the path, for each
  // woken rank to get a core back: rounds x (ranks - 1) receives and rounds + 1 barriers, each up to
  // kWakeUpS. The floor, at least 0.5, stays far above the transfer efficiency of a really slow network
  // (the exchange of 64 MiB messages below: about 0.2).
  const double wake_ups = kRounds * (ranks - 1) + kRounds + 1;
  const double run_time = number(pop(run), "run_time");
  const double floor = 1 - wake_ups * kWakeUpS / run_time;
  ASSERT_GT(floor, 0.5) << "the run is too short to tell a chain from a slow network: " << pop(run).dump();
  EXPECT_GT(number(pop(run), "transfer_efficiency"), floor)
      << "more than " << wake_ups << " wake-ups of " << kWakeUpS * 1e3
      << " ms removed by an ideal network from a chain of 4-byte tokens: " << pop(run).dump();
  expect_self_check(run.directory);
}

INSTANTIATE_TEST_SUITE_P(Ranks, Chain, testing::Values(2, 4));

const json* path_interval(const json& report, const std::string& name) {
  for (const json& i : field(field(report, "critical_path"), "intervals"))
    if (i.value("name", "") == name) return &i;
  return nullptr;
}

// The report's wait-state pattern `key` ("late_post"), or null when no wait was found in it.
const json* wait_pattern(const json& report, const std::string& key) {
  for (const json& p : field(field(report, "wait_states"), "patterns"))
    if (text_of(p, "pattern") == key) return &p;
  return nullptr;
}

TEST(CriticalPath, APipelinesStagesAreThePathAndTheHiddenSideIntervalIsOffIt) {
  TempDir tmp;
  const TracedRun run = traced(tmp, "run", 4, {PARPERF_PROGRAM_MPI_POP_CASES, "pipeline", kUnitMs, "2"});
  const json& path = field(run.report, "critical_path");
  const double length = number(path, "length");
  EXPECT_NEAR(length, number(pop(run), "run_time"), 1e-9) << "the critical path is as long as the run";
  const json* stage = path_interval(run.report, "stage");
  const json* side = path_interval(run.report, "side");
  ASSERT_TRUE(stage && side) << path.dump();
  // Every rank's stage of every round is on the path, each whole: a stage sleeps at least its unit, so
  // their time on the path is at least 4 ranks x 2 rounds x 40 ms, less what the clock repair may have
  // taken off each (a stage whose start it moved forward by up to its largest shift while its end
  // stayed). Not a share of the path: what the path holds besides (each hand-off's wake-up of the next
  // rank, the barriers' skew) grows with the machine's load, and the share fell to 0.896 of a 0.36 s
  // path on two busy cores. The stages are still most of it: the rest would have to exceed the 320 ms
  // of stages, 40 ms a hand-off (8 of them), ten scheduler periods per wake-up.
  const int stages = 4 * 2;
  const double stage_s = std::stod(kUnitMs) * 1e-3;
  const double repair_s = number(field(run.report, "clock_repair"), "largest_shift");
  EXPECT_GE(number(*stage, "time"), stages * (stage_s - repair_s))
      << "the stages of all ranks, one after the other, are the path";
  EXPECT_GT(number(*stage, "share"), 0.5) << "the stages are most of the path";
  EXPECT_LT(number(*side, "share"), 0.02) << "'side' runs while the other ranks' stages do: off the path";
  EXPECT_GT(number(*side, "total_time"), 0.1) << "'side' did run (2 x 60 ms)";
  EXPECT_EQ(field(path, "locations").size(), 4u) << "the path runs through every rank";
  // Serial and parallel analysis give the same path and factors.
  const json parallel = report_json_np2(run.directory);
  for (const char* key : {"critical_path", "pop", "delay_costs", "clock_repair"})
    EXPECT_EQ(parallel[key], run.report[key]) << key << " differs in `parperf report --np 2`";
}

// path_functions.c on 4 ranks, sampled at the default 1000 Hz of CPU time (a sample a ms): the
// stages' stage_kernel (4 ranks x 2 rounds x 50 ms of CPU) are the path, rank 0's side_kernel (2 x
// 25 ms) hides behind the 3 later stages. The kernels spin for CPU time, so their sample counts do not
// depend on how long the ranks waited for the 2 cores.
class SampledPipeline : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir;
    directory_ = *tmp_ / "run";
    ProcessOptions options;
    options.timeout_seconds = kMpiTimeoutSeconds;
    const ProcessResult result = parperf_run_np_with(
        4, directory_, {"--trace", "--sample"}, {PARPERF_PROGRAM_MPI_PATH_FUNCTIONS, "50", "2"}, options);
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    const std::regex line(R"(stage ([0-9.]+) s side ([0-9.]+) s)");
    for (std::sregex_iterator it(result.err.begin(), result.err.end(), line), end; it != end; ++it) {
      stage_cpu_ += std::stod((*it)[1]);
      side_cpu_ += std::stod((*it)[2]);
    }
  }
  static void TearDownTestSuite() { delete tmp_; }

  static json parallel(const std::string& command) {
    ProcessOptions launcher;
    launcher.timeout_seconds = kMpiTimeoutSeconds;
    launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
    const ProcessResult np = run_process(
        {parperf_command().string(), command, "--json", "--np", "2", directory_.string()}, launcher);
    EXPECT_EQ(np.exit_code, 0) << describe(np);
    return json::parse(np.out, nullptr, false);
  }

  static inline TempDir* tmp_ = nullptr;
  static inline std::filesystem::path directory_;
  static inline double stage_cpu_ = 0, side_cpu_ = 0;  // seconds, as the program measured them
};

const json* path_function(const json& path, const std::string& name) {
  for (const json& f : field(path, "functions"))
    if (f.value("name", "") == name) return &f;
  return nullptr;
}

TEST_F(SampledPipeline, TheStagesKernelIsThePathsTimeAndTheHiddenSideKernelHasNoneOfIt) {
  ASSERT_GT(stage_cpu_, 0.3) << "the program did not report its kernels' CPU time";
  const json report = report_json(directory_);
  const json& path = field(report, "critical_path");
  const json* stage = path_function(path, "stage_kernel");
  const json* side = path_function(path, "side_kernel");
  ASSERT_TRUE(stage && side) << "the sampled kernels are not among the path's functions: " << path.dump();
  const json& counts = field(path, "function_samples");
  const double period = 1e-3;  // --sample's default 1000 Hz
  const double sampled_on_path = number(counts, "on_path") * period;
  // At 1000 Hz a kernel's CPU ms is one sample, and nearly all of them interrupt the kernel (1 % of its
  // time reads the clock) inside its stage's span. The kernel counts CPU-time timers at its scheduler
  // tick, so a run's samples stand for its CPU time only within about 15 % on this VM (a kernel's 150 ms
  // came out as 125 to 154 samples): at least 3/4 of the stages' CPU time must be on the path (pieces that
  // missed the stages would leave it off the path, as side_kernel's), and the path's samples other than
  // the stages' are MPI's own work after each wait (microseconds a call).
  EXPECT_GT(number(*stage, "time"), 0.75 * stage_cpu_)
      << "stage_kernel ran " << stage_cpu_ << " s of CPU, all on the path's stages";
  EXPECT_GT(number(*stage, "time"), 0.8 * sampled_on_path)
      << "stage_kernel should be most of the path's sampled time (" << sampled_on_path << " s)";
  EXPECT_GT(number(*stage, "self"), 0.9 * number(*stage, "time")) << "the kernel is the interrupted function";
  EXPECT_GT(number(*side, "total_time"), 0.5 * side_cpu_)
      << "side_kernel ran " << side_cpu_ << " s of CPU in all";
  EXPECT_LT(number(*side, "time"), 0.1 * number(*side, "total_time"))
      << "side_kernel runs while the later stages do: it is hidden, off the path";
}

TEST_F(SampledPipeline, TheParallelAnalysisFindsTheSameFunctionsAndReplays) {
  const json serial = report_json(directory_);
  const json np = parallel("report");
  EXPECT_EQ(np["critical_path"], serial["critical_path"])
      << "`parperf report --np 2` must ship the call-path samples to the process that analyses";
  const json whatif_serial = whatif_json(directory_, {});
  const json whatif_np = parallel("whatif");
  EXPECT_EQ(whatif_np, whatif_serial) << "`parperf whatif --np 2` replays the same traces";
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const ProcessResult under_mpirun =
      mpi_run(2, {parperf_command().string(), "whatif", "--json", directory_.string()}, options);
  EXPECT_EQ(under_mpirun.exit_code, 0) << describe(under_mpirun);
  EXPECT_EQ(json::parse(under_mpirun.out, nullptr, false), whatif_serial)
      << "`mpirun -np 2 parperf whatif` hands over to the parallel analysis too";
}

// A what-if of a run whose trace was cut short (the program killed while it traced) is a prediction from
// part of the run: parperf whatif says so, as the report does (it printed its prediction alone).
TEST_F(SampledPipeline, AWhatIfOfATraceCutShortSaysSo) {
  const std::filesystem::path cut = *tmp_ / "cut";
  std::filesystem::copy(directory_, cut);
  const std::filesystem::path file = cut / "trace.1.ppt";
  std::filesystem::resize_file(file, std::filesystem::file_size(file) * 2 / 3);
  const ProcessResult result = run_process({parperf_command().string(), "whatif", cut.string()});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.err.find("parperf: warning: trace.1.ppt: the trace ends early"), std::string::npos)
      << describe(result);
}

// `parperf report --np 2 DIR | true`: the reader of the report is gone before the job writes it.
// The report's output passes through parperf, which drops what no one reads and ends as a command
// whose reader went away (SIGPIPE, 141 in the shell). mpirun wrote into the closed pipe itself before:
// Open MPI 4.1's launcher then crashed in its SIGPIPE handling ("Segmentation fault", status 139,
// its stack on stderr). Its exit status when the whole report fits the pipe before `true` is gone: 0.
TEST_F(SampledPipeline, AReportWhoseReaderIsGoneEndsQuietly) {
  ProcessOptions launcher;
  launcher.timeout_seconds = kMpiTimeoutSeconds;
  launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  const ProcessResult result = run_process(
      {"/bin/bash", "-c", "\"$0\" report --json --np 2 \"$1\" | true; echo \"status ${PIPESTATUS[0]}\"",
       parperf_command().string(), directory_.string()},
      launcher);
  EXPECT_TRUE(result.out == "status 141\n" || result.out == "status 0\n") << describe(result);
  EXPECT_EQ(result.err.find("Segmentation fault"), std::string::npos) << describe(result);
  EXPECT_EQ(result.err.find("SIGPIPE"), std::string::npos) << describe(result);
}

// A trace whose operation lasts longer than the whole trace (a damaged duration: a flipped bit makes it
// years) is refused naming the file, never reported as the program's time. The run's trace of rank 1,
// decoded, its first operation given a duration of 10^6 s, and written again (cut down to what the
// analyses read, as parallel analysis ships it).
TEST_F(SampledPipeline, AnOperationLongerThanTheWholeTraceIsRefusedNamingTheFile) {
  const std::filesystem::path damaged = *tmp_ / "damaged";
  std::filesystem::copy(directory_, damaged);
  const std::filesystem::path file = damaged / "trace.1.ppt";
  format::TraceFile trace = format::read_trace_file(file);
  bool mutated = false;
  for (format::TraceBlock& block : trace.blocks)
    for (format::TraceEvent& e : block.events)
      if (!mutated && e.kind == format::TraceEventKind::operation) {
        e.duration = trace.process.ticks_per_second * 1'000'000;
        mutated = true;
      }
  ASSERT_TRUE(mutated) << "rank 1's trace holds no operation";
  const std::vector<std::uint8_t> bytes = analysis::operations_trace(trace);
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  for (const char* command : {"report", "whatif"}) {
    const ProcessResult result = run_process({parperf_command().string(), command, damaged.string()});
    EXPECT_EQ(result.exit_code, 1) << "parperf " << command << " took a duration of 10^6 s:\n"
                                   << describe(result);
    EXPECT_NE(result.err.find(file.string() + ": event"), std::string::npos) << describe(result);
    EXPECT_NE(result.err.find("longer than the whole trace"), std::string::npos) << describe(result);
  }
}

TEST(WhatIf, BalancingTheUnevenWorkPredictsTheRunWithEvenWork) {
  TempDir tmp;
  const TracedRun uneven =
      traced(tmp, "uneven", 4, {PARPERF_PROGRAM_MPI_POP_CASES, "imbalance", kUnitMs, "2"});
  const TracedRun even = traced(tmp, "even", 4, {PARPERF_PROGRAM_MPI_POP_CASES, "even", kUnitMs, "2"});
  const json w = whatif_json(uneven.directory, {"--balance", "work"});
  const double measured_even = number(pop(even), "run_time");
  EXPECT_NEAR(number(w, "predicted_time"), measured_even, 0.1 * measured_even) << w.dump();
  EXPECT_GT(number(w, "gain"), 0.2 * number(w, "measured_time")) << w.dump();
}

// A run whose ranks wait in every round for the last one's extra work (pop_cases.c `fence`, `pscw`):
// the last rank's work is on the path, and balancing the work gains its excess over the mean; beside
// both, calls of microseconds and the last rank's late wake-ups (up to kWakeUpS a round), which its
// work does not count. `between`: what synchronizes the rounds, for the messages.
void expect_the_last_ranks_work_on_the_path_and_balanced(const TracedRun& run, int rounds,
                                                         const char* between) {
  const double last = *std::max_element(run.work.begin(), run.work.end());
  const json* work = path_interval(run.report, "work");
  ASSERT_NE(work, nullptr) << run.report["critical_path"].dump();
  EXPECT_NEAR(number(*work, "time"), last, kWakeUpS * rounds)
      << "the last rank's work between the " << between << " is on the path";
  const double mean =
      std::accumulate(run.work.begin(), run.work.end(), 0.0) / static_cast<double>(run.work.size());
  const json w = whatif_json(run.directory, {"--balance", "work"});
  EXPECT_NEAR(number(w, "gain"), last - mean, kWakeUpS * rounds)
      << "balancing the work between the " << between
      << " gains the last rank's extra work over the mean: " << w.dump();
  expect_self_check(run.directory);
}

// pop_cases.c's `fence`: `imbalance` synchronized by a window's fences instead of barriers. A fence
// that may end an epoch completes once every rank entered it; the collector traces each as an
// instance of the window's group, and the graph links it as it links a barrier. Unlinked, each rank's
// fence kept its measured waiting as its own cost: balancing the work predicted a slower run. The
// collector names each put's target, so the fence that completes it is linked to it too.
TEST(Fences, AWindowsFencesAreLinkedAsBarriersAreAndTheirWaitingIsAWaitState) {
  constexpr int kRanks = 4, kRounds = 2;
  TempDir tmp;
  const TracedRun uneven = traced(tmp, "uneven", kRanks,
                                  {PARPERF_PROGRAM_MPI_POP_CASES, "fence", kUnitMs, std::to_string(kRounds)});
  ASSERT_EQ(uneven.work.size(), static_cast<std::size_t>(kRanks));
  EXPECT_NEAR(number(pop(uneven), "load_balance"), mean_over_max(uneven.work), 0.03) << pop(uneven).dump();

  // Each rank but the last (which arrives two units after the one before it) waits at each fence for
  // the last, as long as the last worked more: per rank, the difference of their work over both rounds.
  // Beside it, each wait holds the difference of the two ranks' exits from the fence before (each rank
  // measures its work from its own exit: up to a wake-up, kWakeUpS) and the put's time (microseconds).
  const json& states = field(uneven.report, "wait_states");
  const json* fence = wait_pattern(uneven.report, "wait_at_fence");
  ASSERT_NE(fence, nullptr) << "no Wait at Fence among the wait states: " << states.dump();
  EXPECT_EQ(integer(*fence, "instances"), (kRanks - 1) * kRounds)
      << "every rank but the last waits at each of the " << kRounds
      << " fences that end an epoch (the one that opens the first, MPI_MODE_NOPRECEDE, need not wait)";
  const double last = *std::max_element(uneven.work.begin(), uneven.work.end());
  double expected = 0;
  for (double w : uneven.work) expected += last - w;
  EXPECT_NEAR(number(*fence, "lost"), expected, kWakeUpS * (kRanks - 1) * kRounds)
      << "the ranks wait at the fences for the last rank's extra work: " << fence->dump();
  ASSERT_FALSE(field(*fence, "causes").empty()) << fence->dump();
  EXPECT_EQ(integer(field(*fence, "causes")[0], "rank"), kRanks - 1) << fence->dump();

  // Balanced, each round's work takes the ranks' mean instead of the
  // last rank's (the most in every round, by two units): the replay gains the difference of their
  // work over both rounds; everything else (fences, puts: microseconds) is the same in both, but for
  // the last rank's late exit from a fence, which its work does not count (up to kWakeUpS a round).
  // Unlinked, each fence kept its measured waiting, and balancing predicted a longer run.
  // The path runs through the last rank's work in every round (the rest of it is the fences' own
  // time: on 2 cores shared by 4 ranks polling in them, and more with other load, a fifth of the path).
  expect_the_last_ranks_work_on_the_path_and_balanced(uneven, kRounds, "fences");

  // Each round's put (into the right neighbour, named by its world rank) completes at its rank's fence.
  EXPECT_EQ(integer(field(field(uneven.report, "dependencies"), "linked"), "window_completions"),
            kRanks * kRounds)
      << uneven.report["dependencies"].dump();

  // In OTF2 (as Score-P writes one-sided communication): each put an RmaPut into the right
  // neighbour's window memory, completed at the end of the fence that follows it, each fence that
  // ends an epoch an RMA collective on the window (the opening MPI_MODE_NOPRECEDE one is not traced
  // with its window: a plain region).
  const Otf2Listing otf2 = export_otf2(uneven.directory);
  ASSERT_EQ(otf2.problem, "") << otf2.problem;
  EXPECT_EQ(otf2.defined("RMA_WIN").size(), 1u) << otf2.definitions;
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::vector<std::string> puts = otf2.records("RMA_PUT", rank);
    const std::vector<std::string> completions = otf2.records("RMA_OP_COMPLETE_BLOCKING", rank);
    ASSERT_EQ(puts.size(), static_cast<std::size_t>(kRounds)) << "rank " << rank << ":\n" << otf2.events;
    ASSERT_EQ(completions.size(), puts.size()) << "rank " << rank << ":\n" << otf2.events;
    for (std::size_t i = 0; i < puts.size(); ++i) {
      EXPECT_EQ(number_after(puts[i], "Remote: "), (rank + 1) % kRanks) << puts[i];
      EXPECT_EQ(number_after(puts[i], "Bytes: "), 8) << puts[i];
      EXPECT_EQ(number_after(completions[i], "Matching: "), number_after(puts[i], "Matching: "))
          << completions[i] << " completes " << puts[i];
    }
    EXPECT_EQ(otf2.records("RMA_COLLECTIVE_END", rank).size(), static_cast<std::size_t>(kRounds))
        << "rank " << rank << ":\n"
        << otf2.events;
  }

  // The analysis by parts links the fences alike.
  const json parallel = report_json_np2(uneven.directory);
  for (const char* key : {"critical_path", "pop", "delay_costs", "wait_states", "dependencies"})
    EXPECT_EQ(parallel[key], uneven.report[key]) << key << " differs in `parperf report --np 2`";
}

// pop_cases.c's `pscw`: `imbalance` synchronized by post-start-complete-wait with both neighbours
// of a ring (on 3 ranks, every other rank). The collector traces each post and start with its window
// and group (two members: the call's own event and one more), each complete and wait with its window;
// the graph links each post to the start of every origin it let go and each complete to the wait of
// every target. Every rank's start waits for the last rank's post, after its extra work. (Unlinked,
// each start and wait kept its measured waiting as its own cost: balancing the work predicted no
// gain.)
TEST(PostStartCompleteWait, EachStartIsLinkedToItsTargetsPostAndEachWaitToItsOriginsComplete) {
  constexpr int kRanks = 3, kRounds = 2;
  static_assert(kRanks == 3, "every rank neighbours every other: each waits for the last");
  TempDir tmp;
  const TracedRun uneven = traced(tmp, "uneven", kRanks,
                                  {PARPERF_PROGRAM_MPI_POP_CASES, "pscw", kUnitMs, std::to_string(kRounds)});
  ASSERT_EQ(uneven.work.size(), static_cast<std::size_t>(kRanks));
  const json& dependencies = field(uneven.report, "dependencies");
  // Each round, each rank's start to both neighbours' posts and its complete to both neighbours'
  // waits (a start that returned before a post would be linked through its complete instead).
  EXPECT_EQ(integer(field(dependencies, "linked"), "window_epoch_links"), 4 * kRanks * kRounds)
      << "each MPI_Win_start is linked to its targets' MPI_Win_post and each MPI_Win_wait to its "
         "origins' MPI_Win_complete: "
      << dependencies.dump();
  EXPECT_EQ(integer(field(dependencies, "unlinked"), "window_waits"), 0)
      << "no start or wait is left unlinked: " << dependencies.dump();

  // Late Post: ranks 0 and 1 start before the last rank posts, after its work (four and two units
  // more than theirs a round); the last rank's start finds both posts there. Early Wait: none but
  // wake-ups, every complete follows the same post (up to kWakeUpS each).
  const json* late_post = wait_pattern(uneven.report, "late_post");
  const json* early_wait = wait_pattern(uneven.report, "early_wait");
  ASSERT_NE(late_post, nullptr) << "no Late Post among the wait states: "
                                << uneven.report["wait_states"].dump();
  // The ranks print their work in any order; rank r's is the r-th least (two units apart a round).
  std::vector<double> by_rank = uneven.work;
  std::sort(by_rank.begin(), by_rank.end());
  EXPECT_NEAR(number(*late_post, "lost"), 2 * by_rank[2] - by_rank[0] - by_rank[1],
              kWakeUpS * kRanks * kRounds)
      << "the starts wait for the last rank's posts: " << late_post->dump();
  ASSERT_FALSE(field(*late_post, "causes").empty()) << late_post->dump();
  EXPECT_EQ(integer(field(*late_post, "causes")[0], "rank"), kRanks - 1) << late_post->dump();
  if (early_wait) {
    EXPECT_LT(number(*early_wait, "lost"), kWakeUpS * kRanks * kRounds)
        << "the completes follow the last post at once: " << early_wait->dump();
  }

  // The path runs through the last rank's work in every round: every other rank waits for it at its
  // start; beside it only calls of microseconds and wake-ups (up to kWakeUpS a round).
  // Balanced, each round's work takes the ranks' mean instead of the last rank's: the replay gains
  // the difference over both rounds, as for the fences.
  expect_the_last_ranks_work_on_the_path_and_balanced(uneven, kRounds, "epochs");
  // The start's and wait's waiting is for a partner, not for data: an ideal network keeps it.
  const json ideal = whatif_json(uneven.directory, {"--ideal-network"});
  EXPECT_LT(number(ideal, "gain"), kWakeUpS * kRounds * kRanks) << ideal.dump();

  // In OTF2: each post, start, complete and wait an RmaGroupSync with its epoch's group, both
  // neighbours (the post's and start's whole group, its further member traced after the call); each
  // put completes at the complete's end.
  const Otf2Listing otf2 = export_otf2(uneven.directory);
  ASSERT_EQ(otf2.problem, "") << otf2.problem;
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::vector<std::string> syncs = otf2.records("RMA_GROUP_SYNC", rank);
    ASSERT_EQ(syncs.size(), static_cast<std::size_t>(4 * kRounds)) << "rank " << rank << ":\n" << otf2.events;
    const int left = (rank + kRanks - 1) % kRanks, right = (rank + 1) % kRanks;
    for (const std::string& sync : syncs)
      EXPECT_NE(sync.find("Group: \"ranks " + std::to_string(left) + ", " + std::to_string(right) + "\""),
                std::string::npos)
          << "rank " << rank << "'s epochs are with both neighbours: " << sync;
    const std::vector<std::string> puts = otf2.records("RMA_PUT", rank);
    ASSERT_EQ(puts.size(), static_cast<std::size_t>(kRounds)) << otf2.events;
    EXPECT_EQ(number_after(puts[0], "Remote: "), right) << puts[0];
    EXPECT_EQ(otf2.records("RMA_OP_COMPLETE_BLOCKING", rank).size(), puts.size()) << otf2.events;
  }

  // The analysis by parts links the epochs alike.
  const json parallel = report_json_np2(uneven.directory);
  for (const char* key : {"critical_path", "pop", "delay_costs", "wait_states", "dependencies"})
    EXPECT_EQ(parallel[key], uneven.report[key]) << key << " differs in `parperf report --np 2`";
}

// pop_cases.c's `lock`: the ranks take turns holding an exclusive lock on rank 0's window while they
// work. The collector traces each lock and unlock with its window and the lock's type, and the graph
// links each holder's unlock to the next holder's lock: the lock serialises the ranks as `chain`'s
// messages do, no network makes that faster, and a faster holder lets the next one in sooner.
// (Taken as a transfer, the waiting gave transfer efficiency 0.25 and an ideal network a 75 % gain on
// 4 ranks; taken as measured, making the work twice as fast gained only the last holder's share.)
TEST(WindowLock, AnExclusiveLockSerialisesTheRanksAndAFasterHolderShortensTheOthersWait) {
  constexpr int kRanks = 2, kRounds = 3;
  TempDir tmp;
  const TracedRun run =
      traced(tmp, "run", kRanks, {PARPERF_PROGRAM_MPI_POP_CASES, "lock", kUnitMs, std::to_string(kRounds)});
  ASSERT_EQ(run.work.size(), static_cast<std::size_t>(kRanks));
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double all = std::accumulate(run.work.begin(), run.work.end(), 0.0);
  const double run_time = number(pop(run), "run_time");
  // Serialisation is the most useful time over the run on an ideal network, which keeps the locks'
  // waiting: the run less the other calls' costs (microseconds, and the wake-ups below).
  const double ser = number(pop(run), "serialisation_efficiency");
  EXPECT_NEAR(ser, most / run_time, 0.03) << pop(run).dump();
  EXPECT_NEAR(ser, 1.0 / kRanks, 0.1) << "the ranks work one after the other: " << pop(run).dump();
  EXPECT_GT(number(pop(run), "load_balance"), 0.9) << pop(run).dump();
  // What an ideal network may still take: the other calls' waits for a woken rank to get a core back
  // (the barriers', and the flush's and unlock's after a sleep), each up to kWakeUpS.
  const double wake_ups = kRounds * kRanks + kRounds;
  const double floor = 1 - wake_ups * kWakeUpS / run_time;
  ASSERT_GT(floor, 0.5) << "the run is too short to tell a lock from a slow network: " << pop(run).dump();
  EXPECT_GT(number(pop(run), "transfer_efficiency"), floor)
      << "the lock's waiting is no transfer: " << pop(run).dump();
  const json ideal = whatif_json(run.directory, {"--ideal-network"});
  EXPECT_LT(number(ideal, "gain"), (1 - floor) * number(ideal, "measured_time")) << ideal.dump();

  // Every hold but the first is handed on from the one before (across the barriers too), and rank 0's
  // shared lock at the end, to read the counter, from the last exclusive holder.
  const json& dependencies = field(run.report, "dependencies");
  EXPECT_EQ(integer(field(dependencies, "linked"), "window_lock_handovers"), kRanks * kRounds)
      << "each MPI_Win_lock is linked to the unlock of the lock's previous holder: " << dependencies.dump();
  EXPECT_EQ(integer(field(dependencies, "unlinked"), "window_waits"), 0)
      << "no lock is left unlinked (Open MPI takes a lock when MPI_Win_lock returns): "
      << dependencies.dump();
  // Lock Competition: in each round the second holder waits for the first one's hold, its work (the
  // mean of a rank's work a round, within one oversleep of kWakeUpS) and calls of microseconds, less
  // how late the waiter came to its lock (up to a wake-up from the barrier before). The first holder
  // of a round waits for no one: the previous round's last holder released the lock before the barrier.
  const json* competition = wait_pattern(run.report, "lock_competition");
  ASSERT_NE(competition, nullptr) << "no Lock Competition among the wait states: "
                                  << run.report["wait_states"].dump();
  EXPECT_GE(integer(*competition, "instances"), (kRanks - 1) * kRounds) << competition->dump();
  EXPECT_NEAR(number(*competition, "lost"), all * (kRanks - 1) / kRanks, 2 * kWakeUpS * kRounds)
      << "each round's later holder waits for the earlier one's work: " << competition->dump();

  // Twice as fast work holding the lock lets each next holder in sooner by half its predecessor's
  // work: the run gains half of all the ranks' work. Paths beside the chain of holds, which the
  // shorter chain may bring onto the path, differ from it by a rank's late wake-up from a round's
  // barrier (up to kWakeUpS a round).
  const json faster = whatif_json(run.directory, {"--scale", "work=2"});
  EXPECT_NEAR(number(faster, "gain"), all / 2, kWakeUpS * kRounds)
      << "making the work under the lock twice as fast gains half of every rank's work: " << faster.dump();
  expect_self_check(run.directory);

  // `parperf trace` says which lock each MPI_Win_lock took.
  const ProcessResult listing = run_process({parperf_command().string(), "trace", run.directory.string()});
  ASSERT_EQ(listing.exit_code, 0) << describe(listing);
  std::size_t exclusive = 0, shared = 0;
  for (const std::string& line : lines_of(listing.out))
    if (line.find("'MPI_Win_lock'") != std::string::npos) {
      exclusive += line.find("  exclusive") != std::string::npos;
      shared += line.find("  shared") != std::string::npos;
    }
  EXPECT_EQ(exclusive, static_cast<std::size_t>(kRanks * kRounds)) << listing.out;
  EXPECT_EQ(shared, 1u) << "rank 0 reads the counter under a shared lock: " << listing.out;

  // In OTF2: each MPI_Win_lock an RmaRequestLock of rank 0's lock (rank 0's last one shared), each
  // unlock an RmaReleaseLock; the get completes at the flush, the put at the unlock.
  const Otf2Listing otf2 = export_otf2(run.directory);
  ASSERT_EQ(otf2.problem, "") << otf2.problem;
  for (int rank = 0; rank < kRanks; ++rank) {
    const std::vector<std::string> requests = otf2.records("RMA_REQUEST_LOCK", rank);
    const std::size_t holds = kRounds + (rank == 0 ? 1 : 0);
    ASSERT_EQ(requests.size(), holds) << "rank " << rank << ":\n" << otf2.events;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      EXPECT_EQ(number_after(requests[i], "Remote: "), 0) << requests[i];
      EXPECT_NE(requests[i].find(i < kRounds ? "Type: EXCLUSIVE" : "Type: SHARED"), std::string::npos)
          << requests[i];
    }
    EXPECT_EQ(otf2.records("RMA_RELEASE_LOCK", rank).size(), holds) << otf2.events;
    EXPECT_EQ(otf2.records("RMA_GET", rank).size(), static_cast<std::size_t>(kRounds)) << otf2.events;
    EXPECT_EQ(otf2.records("RMA_PUT", rank).size(), static_cast<std::size_t>(kRounds)) << otf2.events;
    EXPECT_EQ(otf2.records("RMA_OP_COMPLETE_BLOCKING", rank).size(), static_cast<std::size_t>(2 * kRounds))
        << otf2.events;
  }

  // The analysis by parts hands the locks on alike.
  const json parallel = report_json_np2(run.directory);
  for (const char* key : {"critical_path", "pop", "delay_costs", "wait_states", "dependencies"})
    EXPECT_EQ(parallel[key], run.report[key]) << key << " differs in `parperf report --np 2`";
}

TEST(WhatIf, AnIdealNetworkPredictsTheRunWithTinyMessagesAndTransferEfficiencyShowsTheLargeOnes) {
  TempDir tmp;
  // 16 MiB messages: transfer efficiency about 0.7 on this machine. The copies through shared memory
  // are CPU work, partly left in the operations beyond the fitted network's transfer times, and that
  // part grows with the machine's load: with 64 MiB (efficiency 0.2) it was 28 ms, 12 % of the run,
  // on a loaded machine; with 16 MiB it is a quarter of that.
  const std::string large = std::to_string(16 << 20);
  // Units of 60 ms: a rank waking up late on the busy cores shifts a round by a few ms, well inside 10 %.
  const TracedRun big =
      traced(tmp, "large", 2, {PARPERF_PROGRAM_MPI_POP_CASES, "exchange", "60", "4", large});
  const TracedRun tiny = traced(tmp, "tiny", 2, {PARPERF_PROGRAM_MPI_POP_CASES, "exchange", "60", "4", "8"});
  const json w = whatif_json(big.directory, {"--ideal-network"});
  const double measured_tiny = number(pop(tiny), "run_time");
  // The two runs' work sleeps, each overshooting by its wake-ups: on a loaded machine one run can
  // oversleep tens of ms more than the other. The replay keeps the large run's work as it was, so it
  // predicts the small-message run with the large run's work in place of its own (each rank prints
  // the work it did; a round ends with its slowest rank).
  ASSERT_EQ(big.work.size(), 2u);
  ASSERT_EQ(tiny.work.size(), 2u);
  const double work_shift = *std::max_element(big.work.begin(), big.work.end()) -
                            *std::max_element(tiny.work.begin(), tiny.work.end());
  // 8-byte messages cost no transfer: what the small-message run lost to "transfer" is its ranks'
  // waiting for a core after each receive (below), which the large run's replay on an ideal network
  // has not. The 10 % is widened by that loss, as measured (none on an idle machine).
  const double tiny_transfer = number(pop(tiny), "transfer_efficiency");
  EXPECT_NEAR(number(w, "predicted_time"), measured_tiny + work_shift,
              (0.1 + (1 - tiny_transfer)) * measured_tiny)
      << "the small-message run took " << measured_tiny << " s; the large run's work " << big.work[0]
      << " and " << big.work[1] << " s against " << tiny.work[0] << " and " << tiny.work[1] << " s\n"
      << w.dump();
  EXPECT_LT(number(pop(big), "transfer_efficiency"), 0.9)
      << "16 MiB messages take time to move: " << pop(big).dump();
  // A woken rank waits up to kWakeUpS for a core after each of its 2 receives a round and the first
  // barrier.
  const double wake_ups = 4 * 2 + 1;
  const double tiny_floor = 1 - wake_ups * kWakeUpS / measured_tiny;
  EXPECT_GT(tiny_transfer, tiny_floor)
      << "more than " << wake_ups << " wake-ups of 12 ms lost to 8-byte messages: " << pop(tiny).dump();
  expect_self_check(big.directory);
}

// pop_phases.c: an imbalanced phase and a chained one between MPI_Pcontrol switches. Each phase gets
// its own factors, the program those of the phases' time together (the pause between them is no
// one's), and the what-if replay gives each phase's time.
struct PhasedRun {
  TracedRun run;
  std::vector<std::vector<double>> work;  // [phase][rank], as the program measured it
};

PhasedRun phased(const TempDir& tmp, const std::string& name, int ranks) {
  PhasedRun p;
  p.run.directory = tmp / name;
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const ProcessResult result = parperf_run_np_with(ranks, p.run.directory, {"--trace"},
                                                   {PARPERF_PROGRAM_MPI_POP_PHASES, kUnitMs, "2"}, options);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  p.work.assign(2, std::vector<double>(static_cast<std::size_t>(ranks), 0));
  const std::regex line(R"(rank ([0-9]+) phase ([12]) did ([0-9.]+) s)");
  for (std::sregex_iterator it(result.err.begin(), result.err.end(), line), end; it != end; ++it)
    p.work.at(std::stoul((*it)[2]) - 1).at(std::stoul((*it)[1])) = std::stod((*it)[3]);
  p.run.report = report_json(p.run.directory);
  return p;
}

TEST(PopPhases, EachPhaseHasItsFactorsAndTheProgramThoseOfTheRecordedTime) {
  TempDir tmp;
  const PhasedRun p = phased(tmp, "run", 2);
  const json& phases = field(pop(p.run), "phases");
  ASSERT_EQ(phases.size(), 2u)
      << "MPI_Pcontrol(1) twice after switching recording off at the start: two phases, "
         "start-up none: "
      << pop(p.run).dump();
  // Phase 1: uneven work, then a barrier.
  EXPECT_NEAR(number(phases[0], "load_balance"), mean_over_max(p.work[0]), 0.03) << phases[0].dump();
  EXPECT_NEAR(number(phases[0], "load_balance"), 2.0 / 3, 0.1) << phases[0].dump();
  EXPECT_GT(number(phases[0], "serialisation_efficiency"), 0.9)
      << "no chain in phase 1: " << phases[0].dump();
  EXPECT_GT(number(phases[0], "transfer_efficiency"), 0.9) << phases[0].dump();
  // Phase 2: a receive-work-send chain.
  EXPECT_NEAR(number(phases[1], "serialisation_efficiency"), 0.5, 0.1) << phases[1].dump();
  EXPECT_NEAR(number(phases[1], "load_balance"), mean_over_max(p.work[1]), 0.03) << phases[1].dump();
  EXPECT_GT(number(phases[1], "transfer_efficiency"), 0.9) << phases[1].dump();
  // The program: the phases' work and time together, without the pause (2 units of sleep).
  std::vector<double> total(2);
  for (std::size_t r = 0; r < 2; ++r) total[r] = p.work[0][r] + p.work[1][r];
  EXPECT_NEAR(number(pop(p.run), "load_balance"), mean_over_max(total), 0.03) << pop(p.run).dump();
  EXPECT_NEAR(number(pop(p.run), "load_balance"), 0.75, 0.1) << pop(p.run).dump();
  EXPECT_NEAR(number(pop(p.run), "run_time"), number(phases[0], "run_time") + number(phases[1], "run_time"),
              1e-9);
  EXPECT_GT(number(pop(p.run), "paused_time"), 0.9 * 2 * 0.040)
      << "the pause's 2 units are outside the phases";
  const ProcessResult text = run_process({parperf_command().string(), "report", p.run.directory.string()});
  EXPECT_NE(text.out.find("Over the 2 recorded phases"), std::string::npos) << text.out;

  // The replay, per phase: unchanged it gives each phase back; balancing "work" shortens phase 1 to
  // the ranks' mean work and leaves phase 2 alone.
  const json w = whatif_json(p.run.directory, {"--balance", "work"});
  const json& replayed = field(w, "phases");
  ASSERT_EQ(replayed.size(), 2u) << w.dump();
  for (const json& phase : replayed)
    EXPECT_NEAR(number(phase, "replayed_time"), number(phase, "measured_time"),
                0.03 * number(phase, "measured_time"))
        << "the unchanged replay does not give the phase's time back: " << w.dump();
  const double mean_work = (p.work[0][0] + p.work[0][1]) / 2;
  EXPECT_NEAR(number(replayed[0], "predicted_time"), mean_work, 0.1 * mean_work)
      << "balanced, phase 1 takes the ranks' mean work: " << w.dump();
  EXPECT_NEAR(number(replayed[1], "predicted_time"), number(replayed[1], "replayed_time"),
              0.03 * number(replayed[1], "replayed_time"))
      << "phase 2 has no 'work': " << w.dump();

  // The parallel analysis sees the same phases.
  ProcessOptions launcher;
  launcher.timeout_seconds = kMpiTimeoutSeconds;
  launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  const ProcessResult np = run_process(
      {parperf_command().string(), "report", "--json", "--np", "2", p.run.directory.string()}, launcher);
  ASSERT_EQ(np.exit_code, 0) << describe(np);
  EXPECT_EQ(json::parse(np.out, nullptr, false)["pop"], pop(p.run))
      << "pop differs in `parperf report --np 2`";
}

// 8 ranks on 2 cores exchanging 1 600 small messages each: the clock correction leaves some received
// before they were sent (a few µs of offset error against µs-long messages). After the repair no
// dependency runs backwards, the exports show the repaired times, and the report says what moved.
TEST(ClockRepair, AfterTheRepairNoDependencyOfAnOversubscribedRunRunsBackwards) {
  TempDir tmp;
  const TracedRun run = traced(tmp, "run", 8, {PARPERF_PROGRAM_MPI_POP_CASES, "exchange", "0", "200", "8"});
  const json& repair = field(run.report, "clock_repair");
  EXPECT_EQ(integer(repair, "remaining"), 0) << repair.dump();
  EXPECT_GT(integer(repair, "dependencies"), 8 * 200 * 2)
      << "every message is a dependency: " << repair.dump();
  if (integer(repair, "violations") > 0) {
    EXPECT_GT(integer(repair, "moved"), 0) << repair.dump();
    EXPECT_GT(number(repair, "largest_shift"), 0) << repair.dump();
  }
  // The Chrome export's message arrows all go forward in time.
  const std::filesystem::path chrome = tmp / "timeline.json";
  const ProcessResult exported = run_process(
      {parperf_command().string(), "export", run.directory.string(), "--chrome-json", chrome.string()});
  ASSERT_EQ(exported.exit_code, 0) << describe(exported);
  std::map<std::int64_t, std::pair<double, double>> flows;  // by id: start, end
  const json timeline = read_json_file(chrome);
  for (const json& e : timeline["traceEvents"]) {
    if (e.value("ph", "") == "s") flows[e["id"].get<std::int64_t>()].first = e["ts"].get<double>();
    if (e.value("ph", "") == "f") flows[e["id"].get<std::int64_t>()].second = e["ts"].get<double>();
  }
  EXPECT_GT(flows.size(), 8u * 200u * 2u);
  for (const auto& [id, ends] : flows)
    EXPECT_LE(ends.first, ends.second) << "flow " << id << " ends before it starts in the exported timeline";
}

TEST(PopHybrid, TheMpiAndOpenMpPartsApart) {
  TempDir tmp;
  const TracedRun run = traced(tmp, "run", 2, {PARPERF_PROGRAM_MPI_POP_HYBRID, kUnitMs, "2"});
  ASSERT_EQ(run.work.size(), 4u);  // rank 0 threads 0, 1; rank 1 threads 0, 1 (in the order printed)
  const double overall = mean_over_max(run.work);
  const json& p = pop(run);
  EXPECT_NEAR(number(p, "load_balance"), overall, 0.03) << p.dump();
  EXPECT_NEAR(number(p, "load_balance"), 0.5, 0.1) << p.dump();
  EXPECT_NEAR(number(field(p, "mpi"), "load_balance"), 0.667, 0.1) << p.dump();
  EXPECT_NEAR(number(field(p, "openmp"), "load_balance"), 0.75, 0.1) << p.dump();
  EXPECT_NEAR(number(field(p, "mpi"), "load_balance") * number(field(p, "openmp"), "load_balance"),
              number(p, "load_balance"), 1e-6)
      << "the hybrid model multiplies the parts";
}

TEST(PopOpenMP, OneRanksThreadsWorkingOneAndThreeUnits) {
  TempDir tmp;
  const TracedRun run = traced(tmp, "run", 1, {PARPERF_PROGRAM_MPI_POP_HYBRID, kUnitMs, "2"});
  ASSERT_EQ(run.work.size(), 2u);
  EXPECT_NEAR(number(pop(run), "load_balance"), mean_over_max(run.work), 0.03) << pop(run).dump();
  EXPECT_NEAR(number(pop(run), "load_balance"), 0.667, 0.1) << pop(run).dump();
  EXPECT_FALSE(pop(run).contains("mpi")) << "one rank has no MPI part";
}

TEST(PopProfile, WithoutATraceTheFactorsThatNeedNoneAndWhichNeedIt) {
  TempDir tmp;
  const TracedRun run =
      traced(tmp, "run", 2, {PARPERF_PROGRAM_MPI_POP_CASES, "imbalance", kUnitMs, "2"}, /*trace=*/false);
  EXPECT_EQ(text_of(pop(run), "source"), "profile");
  EXPECT_NEAR(number(pop(run), "load_balance"), mean_over_max(run.work), 0.03) << pop(run).dump();
  EXPECT_TRUE(pop(run)["serialisation_efficiency"].is_null());
  EXPECT_EQ(pop(run)["needs_trace"], json({"serialisation_efficiency", "transfer_efficiency"}));
  EXPECT_FALSE(run.report.contains("critical_path"));
}

}  // namespace
}  // namespace parperf::test
