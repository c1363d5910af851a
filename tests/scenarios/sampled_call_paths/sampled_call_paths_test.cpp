// Scenario: call-path sampling of hot_functions.c, a program that knows nothing of parperf.
//
// Each thread spends 300 ms of its CPU time in f and 100 ms in g (50 ms reached through via_a,
// 50 ms through via_b): measured in CPU time, so the shares do not depend on how busy the machine
// is. Expected, of a thread's samples: f 75 %, g 25 % (self), via_a and via_b 12.5 % each
// (inclusive: the walk finds the callers by the call-frame tables with or without frame pointers). At 1 kHz a
// thread takes about 400 samples; the timers are periodic, not random, so the shares are off by a few samples
// only: a tolerance of 5 points.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kTolerance = 0.05;

ProcessOptions sampled(const std::string& clock = "cpu") {
  ProcessOptions options;
  options.env = {{"PARPERF_SAMPLE_HZ", "1000"}, {"PARPERF_SAMPLE_CLOCK", clock}};
  return options;
}

const nlohmann::json& program_samples(const nlohmann::json& report) {
  const nlohmann::json& samples = field(report, "samples");
  for (const auto& interval : samples["intervals"])
    if (interval["name"] == "program") return interval;
  ADD_FAILURE() << "no samples in the program interval: " << samples.dump(2);
  return null_json();
}

struct Shares {
  double self = 0, inclusive = 0;
};

Shares share_of(const nlohmann::json& interval, const std::string& function) {
  const double all = interval.value("samples", 0.0);
  for (const auto& f : interval["functions"])
    if (f["function"] == function && all > 0)
      return {f["self"].get<double>() / all, f["inclusive"].get<double>() / all};
  return {};
}

std::string functions_of(const nlohmann::json& interval) { return interval["functions"].dump(1); }

void expect_hot_shares(const char* program, int threads) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {program, std::to_string(threads)}, sampled());
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto report = report_json(tmp / "run");
  const nlohmann::json& interval = program_samples(report);
  ASSERT_GE(interval.value("samples", 0), 300 * threads)
      << "each thread's 400 ms of CPU time at 1 kHz should give about 400 samples";
  const Shares f = share_of(interval, "f"), g = share_of(interval, "g");
  EXPECT_NEAR(f.self, 0.75, kTolerance)
      << "f spins 300 of the 400 ms of CPU time; " << functions_of(interval);
  EXPECT_NEAR(g.self, 0.25, kTolerance) << "g spins 100 of the 400 ms; " << functions_of(interval);
  // Each share comes with its 95 % interval, and 75 % against 25 % of 300 samples or more are told apart.
  for (const auto& fn : interval["functions"]) {
    const double share = fn["self_share"].get<double>();
    EXPECT_LE(fn["self_interval"][0].get<double>(), share) << fn.dump();
    EXPECT_GE(fn["self_interval"][1].get<double>(), share) << fn.dump();
  }
  EXPECT_TRUE(interval.value("ranked", false)) << "f and g are ranked: " << functions_of(interval);
  EXPECT_NEAR(share_of(interval, "via_a").inclusive, 0.125, kTolerance)
      << "via_a calls g for 50 ms; the stack walk should find it above g; " << functions_of(interval);
  EXPECT_NEAR(share_of(interval, "via_b").inclusive, 0.125, kTolerance)
      << "via_b calls g for 50 ms; " << functions_of(interval);
  EXPECT_NEAR(share_of(interval, "main").inclusive + share_of(interval, "start_thread").inclusive, 1.0,
              kTolerance)
      << "every sample's path starts at main (one thread) or start_thread; " << functions_of(interval);
  EXPECT_EQ(field(report, "samples").value("not_unwound", -1), 0)
      << "every path reaches its thread's start, through libc too; " << functions_of(interval);
  if (threads > 1) {
    // The main thread only waits (no CPU time, no samples); each worker's top function is f.
    ASSERT_EQ(interval["processors"].size(), static_cast<std::size_t>(threads))
        << "each worker is a processor with samples: " << interval["processors"].dump(1);
    for (const auto& processor : interval["processors"])
      EXPECT_EQ(processor["function"], "f") << "every worker spends 75 % in f: " << processor.dump();
  }
}

TEST(SampledCallPaths, GccWithFramePointersOneThread) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP, 1);
}
TEST(SampledCallPaths, GccWithFramePointersTwoThreads) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP, 2);
}
TEST(SampledCallPaths, GccWithoutFramePointersOneThread) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_NOFP, 1);
}
TEST(SampledCallPaths, GccWithoutFramePointersTwoThreads) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_NOFP, 2);
}
TEST(SampledCallPaths, ClangWithFramePointersOneThread) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_CLANG_FP, 1);
}
TEST(SampledCallPaths, ClangWithFramePointersTwoThreads) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_CLANG_FP, 2);
}
TEST(SampledCallPaths, ClangWithoutFramePointersOneThread) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_CLANG_NOFP, 1);
}
TEST(SampledCallPaths, ClangWithoutFramePointersTwoThreads) {
  expect_hot_shares(PARPERF_PROGRAM_HOT_FUNCTIONS_CLANG_NOFP, 2);
}

// The wall clock samples a thread that sleeps: nap's 200 ms of the 300 ms. The CPU clock does not.
// Under load f's 100 ms of CPU time may take longer, so only a lower bound for nap's share.
// Whether this kernel lets a thread sample its own user-space CPU time with a perf event
// (perf_event_paranoid <= 2, no filter refusing the call): then parperf must use it.
bool perf_events_allowed() {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = 1000000;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  close(static_cast<int>(fd));
  return true;
}

// The perf-event clock fires every 1 ms of a thread's user time: 400 ms of spinning give 400 samples
// a second of CPU time as the intervals measure it (their CPU-time reads are 100 µs apart: a fraction
// of a percent of 400 ms). POSIX timers of CPU time count the same periods at the tick (their overruns
// weigh the samples). Either way within 15 %: a clock sampling at the tick's 250 Hz instead of the
// requested 1 kHz is far outside it.
TEST(SampleSource, ThePerfEventCpuClockWhereTheKernelAllowsItAndTimersWhenAskedBothAtTheRequestedRate) {
  TempDir tmp;
  const std::string program = PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP;
  const auto automatic = measure(tmp / "auto", {program, "1"}, sampled());
  ASSERT_EQ(automatic.exit_code, 0) << describe(automatic);
  const nlohmann::json samples = field(report_json(tmp / "auto"), "samples");
  EXPECT_EQ(samples["source"], perf_events_allowed() ? "perf_event" : "timer") << samples.dump();
  ASSERT_TRUE(samples["effective_rate"].is_number()) << samples.dump();
  EXPECT_NEAR(samples["effective_rate"].get<double>(), 1000, 150) << samples.dump();
  const Shares f = share_of(program_samples(report_json(tmp / "auto")), "f");
  EXPECT_NEAR(f.self, 0.75, kTolerance);

  ProcessOptions timers = sampled();
  timers.env.emplace_back("PARPERF_SAMPLE_SOURCE", "timer");
  const auto timed = measure(tmp / "timer", {program, "1"}, timers);
  ASSERT_EQ(timed.exit_code, 0) << describe(timed);
  const nlohmann::json timer_samples = field(report_json(tmp / "timer"), "samples");
  EXPECT_EQ(timer_samples["source"], "timer") << timer_samples.dump();
  EXPECT_NEAR(timer_samples["effective_rate"].get<double>(), 1000, 150) << timer_samples.dump();
  EXPECT_NEAR(share_of(program_samples(report_json(tmp / "timer")), "f").self, 0.75, kTolerance);
  const ProcessResult text =
      run_process({parperf_command().string(), "report", "--functions", (tmp / "timer").string()});
  EXPECT_NE(text.out.find("POSIX timers, at the scheduler tick"), std::string::npos) << text.out;
}

// The sampling clocks' descriptors are the program's resource: against the same program measured
// without sampling, the program gets the same number for its first open, and every descriptor that
// sampling added is close-on-exec and in the upper half of the soft limit, out of the way of select()
// sets and of numbers programs hard-code. (Descriptors the test's own launcher passes down are in both.)
struct Descriptors {
  std::string first;
  long limit = 0;
  std::map<long, std::string> others;  // number -> "cloexec" or "inherited"
};

Descriptors descriptors_of(const ProcessResult& result) {
  Descriptors d;
  std::smatch m;
  if (std::regex_search(result.out, m, std::regex(R"(first (-?[0-9]+))"))) d.first = m[1];
  if (std::regex_search(result.out, m, std::regex(R"(limit ([0-9]+))"))) d.limit = std::stol(m[1]);
  const std::regex line(R"(other ([0-9]+) (\w+))");
  for (std::sregex_iterator it(result.out.begin(), result.out.end(), line), end; it != end; ++it)
    d.others[std::stol((*it)[1])] = (*it)[2];
  return d;
}

TEST(SampleSource, TheClocksDescriptorsAreCloseOnExecAboveTheNumbersProgramsUse) {
  TempDir tmp;
  const auto plain = measure(tmp / "plain", {PARPERF_PROGRAM_DESCRIPTOR_NEIGHBOURS});
  const auto result = measure(tmp / "sampled", {PARPERF_PROGRAM_DESCRIPTOR_NEIGHBOURS}, sampled());
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Descriptors before = descriptors_of(plain), after = descriptors_of(result);
  EXPECT_EQ(after.first, before.first) << "sampling took a number the program would have had:\n"
                                       << result.out;
  ASSERT_GT(after.limit, 0) << result.out;
  int added = 0;
  for (const auto& [fd, state] : after.others) {
    if (before.others.count(fd)) continue;
    ++added;
    EXPECT_EQ(state, "cloexec") << "descriptor " << fd << " would leak into the program's children";
    EXPECT_GE(fd, std::min<long>(after.limit, 1 << 20) / 2)
        << "descriptor " << fd << " is among the program's";
  }
  if (perf_events_allowed()) {
    EXPECT_GE(added, 1) << "the thread's perf-event clock:\n" << result.out;
  }
}

TEST(SampledCallPaths, WallClockSeesTheSleepingFunctionAndCpuClockDoesNot) {
  TempDir tmp;
  const std::string program = PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP;
  const auto wall = measure(tmp / "wall", {program, "1", "1", "sleep"}, sampled("wall"));
  ASSERT_EQ(wall.exit_code, 0) << describe(wall);
  const auto wall_report = report_json(tmp / "wall");
  EXPECT_EQ(field(wall_report, "samples")["clock"], "wall");
  EXPECT_EQ(field(wall_report, "samples")["source"], "timer") << "elapsed time is a POSIX timer's to count";
  const nlohmann::json& wall_interval = program_samples(wall_report);
  EXPECT_GT(share_of(wall_interval, "nap").inclusive, 0.4)
      << "nap sleeps 200 ms of the run's 300: the wall clock must see it waiting; "
      << functions_of(wall_interval);
  const auto cpu = measure(tmp / "cpu", {program, "1", "1", "sleep"}, sampled("cpu"));
  ASSERT_EQ(cpu.exit_code, 0) << describe(cpu);
  const auto cpu_report = report_json(tmp / "cpu");
  const nlohmann::json& cpu_interval = program_samples(cpu_report);
  EXPECT_LT(share_of(cpu_interval, "nap").inclusive, 0.1)
      << "nap uses no CPU time: CPU-time samples must not land in it; " << functions_of(cpu_interval);
  EXPECT_NEAR(share_of(cpu_interval, "f").self, 1.0, kTolerance) << functions_of(cpu_interval);
}

// Wall-clock samples fall inside every wait longer than a period; usleep, nanosleep, poll and select
// would fail with EINTR and pause would return at the first one, whatever SA_RESTART says. The
// program calls each once for 100 ms without retrying: each must last its 100 ms and return as
// unmeasured, pause must still end at the program's own SIGALRM, and each wait's 100 ms must still
// show in the samples, at the call (20 % of the run each).
TEST(SampledCallPaths, WallClockSamplesDoNotCutWaitsShortAndStillSeeThem) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_WHOLE_WAITS}, sampled("wall"));
  EXPECT_EQ(result.exit_code, 0) << "a wait returned early or failed under sampling: " << describe(result);
  EXPECT_NE(result.out.find("whole"), std::string::npos) << describe(result);
  const auto report = report_json(tmp / "run");
  const nlohmann::json& interval = program_samples(report);
  for (const char* wait : {"usleep", "nanosleep", "poll", "select", "pause"}) {
    EXPECT_NEAR(share_of(interval, wait).self, 0.2, kTolerance)
        << wait << " waits 100 ms of the run's 500: its samples must land on the call; "
        << functions_of(interval);
    const double all = interval.value("samples", 0.0);
    double through_caller = 0;
    for (const auto& path : interval["paths"]) {
      const auto& frames = path["frames"];
      if (frames.size() >= 2 && frames.back() == wait &&
          frames[frames.size() - 2] == std::string("wait_") + wait)
        through_caller += path["samples"].get<double>();
    }
    EXPECT_NEAR(all > 0 ? through_caller / all : 0, 0.2, kTolerance)
        << "wait_" << wait << " calls " << wait << ": the path must keep its caller; "
        << interval["paths"].dump(1);
  }
}

// The profile holds call paths with counts, not samples: four times the run, about the same file.
TEST(SampledCallPaths, ProfileSizeDoesNotGrowWithTheRunLength) {
  TempDir tmp;
  const std::string program = PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP;
  const auto short_run = measure(tmp / "short", {program, "1", "0.5"}, sampled());
  const auto long_run = measure(tmp / "long", {program, "1", "2"}, sampled());
  ASSERT_EQ(short_run.exit_code, 0) << describe(short_run);
  ASSERT_EQ(long_run.exit_code, 0) << describe(long_run);
  const auto short_size = std::filesystem::file_size(tmp / "short" / "profile.0.ppf");
  const auto long_size = std::filesystem::file_size(tmp / "long" / "profile.0.ppf");
  const auto short_samples = field(report_json(tmp / "short"), "samples")["samples"].get<double>();
  const auto long_samples = field(report_json(tmp / "long"), "samples")["samples"].get<double>();
  EXPECT_GT(long_samples, 3 * short_samples) << "the long run is four times as long";
  EXPECT_LE(static_cast<double>(long_size), 1.25 * static_cast<double>(short_size) + 512)
      << "profile of " << long_samples << " samples: " << long_size << " bytes; of " << short_samples
      << " samples: " << short_size << " bytes";
}

// `parperf run --sample` sets what the runtime reads; `parperf report --functions` and `--folded`
// show it: the folded lines start with the interval path, then the call path, then the count.
TEST(SampledCallPaths, RunOptionAndFunctionsAndFoldedReports) {
  TempDir tmp;
  const auto run = run_process({parperf_command().string(), "run", "-q", "--sample=500", "-o",
                                (tmp / "run").string(), "--", PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP, "1"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NEAR(field(report_json(tmp / "run"), "samples")["period"].get<double>(), 0.002, 1e-9)
      << "--sample=500 is a 2 ms period";
  const auto text =
      run_process({parperf_command().string(), "report", "--functions", (tmp / "run").string()});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("hot_functions.c:"), std::string::npos) << "functions with file:line\n" << text.out;
  EXPECT_NE(text.out.find("via_a > g"), std::string::npos) << "the call path of g through via_a\n"
                                                           << text.out;
  const auto folded = run_process({parperf_command().string(), "report", "--folded", (tmp / "run").string()});
  ASSERT_EQ(folded.exit_code, 0) << describe(folded);
  bool found = false;
  for (const std::string& line : lines_of(folded.out)) {
    if (line.rfind("program;", 0) != 0) ADD_FAILURE() << "a folded stack not under its interval: " << line;
    if (line.find(";main;work;via_b;g ") != std::string::npos) found = true;
  }
  EXPECT_TRUE(found) << "no folded stack main;work;via_b;g\n" << folded.out;
}

}  // namespace
}  // namespace parperf::test
