// Scenario: `parperf run --trace` on event_trace_program.c, whose events are known by construction
// (two threads, STEPS steps each, ITERATIONS iteration marks per step, a user event per step, an
// interval "noise" on the main thread and one, "hidden", entered while recording is off).
//
// Small buffers (--trace-buffer 4K, a few hundred events) make every thread hand many blocks to the
// writer, so the double buffering, the writer's order and the final flush are all exercised. The
// trace is read back with the analysis' own reader and merge, and `parperf trace` lists it.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_run.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace fs = std::filesystem;
namespace {

constexpr int kSteps = 200;
constexpr int kIterations = 50;
constexpr int kNoise = 100;

ProcessResult parperf_run(const fs::path& dir, const std::vector<std::string>& options,
                          const std::vector<std::string>& program_arguments = {},
                          ProcessOptions process = {}) {
  std::vector<std::string> argv = {parperf_command().string(), "run", "-q", "-o", dir.string()};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.push_back(PARPERF_PROGRAM_EVENT_TRACE_PROGRAM);
  argv.insert(argv.end(), program_arguments.begin(), program_arguments.end());
  return run_process(argv, process);
}

// What one thread's events say, counted by name.
struct ThreadSummary {
  std::map<std::string, int> enters;
  std::map<std::string, int> iterations;  // by the interval they mark
  int event_starts = 0;
  int event_ends = 0;
  std::vector<std::string> texts;
  int recording_off = 0;
  int recording_on = 0;
  std::string nesting_error;  // the first leave that did not close the innermost open interval
  int max_depth = 0;
};

std::map<std::pair<std::int64_t, std::uint32_t>, ThreadSummary> summarize(const analysis::TraceRun& traces) {
  std::map<std::pair<std::int64_t, std::uint32_t>, ThreadSummary> threads;
  std::map<std::pair<std::int64_t, std::uint32_t>, std::vector<std::uint32_t>> stacks;
  std::map<std::int64_t, const analysis::RankTrace*> rank_of;
  for (const auto& rank : traces.ranks) rank_of[rank.rank] = &rank;
  auto streams = analysis::all_thread_streams(traces);
  double previous = -1e300;
  analysis::merge_timeline(streams, traces.clocks, [&](const analysis::TimelineEvent& e) {
    EXPECT_GE(e.time_ns, previous) << "the merged timeline goes back in time";
    previous = e.time_ns;
    const auto key = std::pair(e.rank, e.thread);
    ThreadSummary& s = threads[key];
    auto& stack = stacks[key];
    const analysis::RankTrace& rank = *rank_of.at(e.rank);
    switch (e.event.kind) {
      case format::TraceEventKind::enter:
        ++s.enters[analysis::site_name(rank, e.event.site)];
        stack.push_back(e.event.site);
        s.max_depth = std::max(s.max_depth, static_cast<int>(stack.size()));
        break;
      case format::TraceEventKind::leave:
        if ((stack.empty() || stack.back() != e.event.site) && s.nesting_error.empty())
          s.nesting_error =
              "leave of " + analysis::site_name(rank, e.event.site) + " closes no open interval";
        if (!stack.empty()) stack.pop_back();
        break;
      case format::TraceEventKind::iteration:
        ++s.iterations[analysis::site_name(rank, e.event.site)];
        break;
      case format::TraceEventKind::event_start:
        ++s.event_starts;
        s.texts.push_back(e.event.text);
        break;
      case format::TraceEventKind::event_end:
        ++s.event_ends;
        break;
      case format::TraceEventKind::recording_off:
        ++s.recording_off;
        break;
      case format::TraceEventKind::recording_on:
        ++s.recording_on;
        break;
      default:
        break;
    }
  });
  for (auto& [key, stack] : stacks)
    EXPECT_TRUE(stack.empty()) << "thread " << key.second << " ends with " << stack.size()
                               << " open intervals";
  return threads;
}

// The profile's count of entries of `name` on thread `thread`.
std::uint64_t profile_entries(const analysis::RunData& run, std::uint32_t thread, const std::string& name) {
  std::uint64_t count = 0;
  for (const format::Profile& profile : run.profiles)
    for (const format::Thread& t : profile.threads)
      if (t.index == thread)
        for (const format::Node& node : t.nodes)
          for (const format::Site& site : profile.sites)
            if (site.id == node.site && site.name == name) count += node.count;
  return count;
}

class EventTrace : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = std::make_unique<TempDir>();
    const auto result = parperf_run(*tmp_ / "run", {"--trace", "--trace-buffer", "4K"});
    measured_ = result.exit_code == 0 && result.err.empty();
    if (!measured_) std::fprintf(stderr, "parperf run --trace failed:\n%s\n", describe(result).c_str());
  }
  static void TearDownTestSuite() { tmp_.reset(); }
  void SetUp() override { ASSERT_TRUE(measured_) << "see the failure of parperf run above"; }

  static std::unique_ptr<TempDir> tmp_;
  static bool measured_;
};
std::unique_ptr<TempDir> EventTrace::tmp_;
bool EventTrace::measured_ = false;

TEST_F(EventTrace, EveryIntervalIterationAndUserEventOfBothThreadsIsInTheTraceNested) {
  const analysis::RunData run = analysis::load_run(*tmp_ / "run");
  const analysis::TraceRun traces = analysis::load_traces(run);
  ASSERT_EQ(traces.ranks.size(), 1u);
  EXPECT_TRUE(traces.warnings.empty()) << traces.warnings.front();
  ASSERT_TRUE(traces.ranks[0].trace->clock) << "the trace was closed with its clock record";
  EXPECT_EQ(traces.ranks[0].trace->clock->lost_events, 0u);
  const auto threads = summarize(traces);
  ASSERT_EQ(threads.size(), 2u) << "the main thread and the worker";
  for (const auto& [key, s] : threads) {
    SCOPED_TRACE("thread " + std::to_string(key.second));
    EXPECT_EQ(s.nesting_error, "");
    EXPECT_EQ(s.enters.at("step"), kSteps);
    EXPECT_EQ(s.enters.at("sweep"), kSteps);
    EXPECT_EQ(s.iterations.at("sweep"), kSteps * kIterations);
    EXPECT_EQ(s.event_starts, kSteps);
    EXPECT_EQ(s.event_ends, kSteps);
    ASSERT_EQ(s.texts.size(), static_cast<std::size_t>(kSteps));
    EXPECT_EQ(s.texts[0], "exchange of step 0") << "the user event's description with its arguments";
    EXPECT_EQ(s.texts[kSteps - 1], "exchange of step " + std::to_string(kSteps - 1));
    EXPECT_EQ(s.enters.count("hidden"), 0u) << "recording was off while 'hidden' ran";
  }
  const ThreadSummary& main_thread = threads.at({0, 0});
  EXPECT_EQ(main_thread.enters.at("noise"), kNoise);
  EXPECT_EQ(main_thread.recording_off, 1) << "the pause is marked where parperf_control was called";
  EXPECT_EQ(main_thread.recording_on, 1);
}

TEST_F(EventTrace, SmallBuffersMakeManyBlocksWhoseSequenceHasNoGap) {
  const analysis::RunData run = analysis::load_run(*tmp_ / "run");
  const analysis::TraceRun traces = analysis::load_traces(run);
  std::map<std::uint32_t, std::vector<std::uint64_t>> sequences;
  std::uint64_t compressed = 0;
  for (const format::TraceBlock& block : traces.ranks.at(0).trace->blocks) {
    sequences[block.header.thread].push_back(block.header.sequence);
    compressed += block.header.compression == static_cast<std::uint32_t>(format::TraceCompression::zstd);
  }
  for (auto& [thread, seq] : sequences) {
    std::sort(seq.begin(), seq.end());
    EXPECT_GT(seq.size(), 5u) << "thread " << thread << ": 4 KB buffers hold about a thousand events";
    for (std::size_t i = 0; i < seq.size(); ++i)
      EXPECT_EQ(seq[i], i) << "thread " << thread << ": block " << i << " is missing";
  }
  EXPECT_GT(compressed, 0u) << "the writer compresses blocks";
}

TEST_F(EventTrace, TheProfileOfATracedRunCountsWhatAnUntracedRunCounts) {
  const auto plain = parperf_run(*tmp_ / "plain", {});
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  EXPECT_FALSE(fs::exists(*tmp_ / "plain" / "trace.0.ppt")) << "no trace without --trace";
  const analysis::RunData traced = analysis::load_run(*tmp_ / "run");
  const analysis::RunData untraced = analysis::load_run(*tmp_ / "plain");
  for (const char* name : {"step", "sweep", "noise", "hidden"})
    for (std::uint32_t thread : {0u, 1u})
      EXPECT_EQ(profile_entries(traced, thread, name), profile_entries(untraced, thread, name))
          << name << " on thread " << thread;
  EXPECT_EQ(profile_entries(traced, 0, "noise"), static_cast<std::uint64_t>(kNoise));
}

TEST_F(EventTrace, ParperfTraceListsTheEventsInTimeOrderWithinTheWindow) {
  const auto all = run_process({parperf_command().string(), "trace", (*tmp_ / "run").string()});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  const auto lines = lines_of(all.out);
  ASSERT_GT(lines.size(), 1000u);
  EXPECT_NE(all.out.find("user event 'halo' begins: \"exchange of step 7\""), std::string::npos);
  EXPECT_NE(all.out.find("recording paused"), std::string::npos);
  EXPECT_EQ(all.out.find("'hidden'"), std::string::npos);
  // The window: the middle third of the listing; every line in it, and nothing else.
  const double from = std::stod(lines[lines.size() / 3]);
  const double to = std::stod(lines[lines.size() / 2]);
  const auto window = run_process({parperf_command().string(), "trace", "--from", std::to_string(from) + "s",
                                   "--to", std::to_string(to) + "s", "--thread", "1", "--no-events",
                                   "iteration", (*tmp_ / "run").string()});
  ASSERT_EQ(window.exit_code, 0) << describe(window);
  const auto shown = lines_of(window.out);
  ASSERT_GT(shown.size(), 2u) << window.out;
  for (std::size_t i = 1; i < shown.size(); ++i) {
    const double t = std::stod(shown[i]);
    EXPECT_GE(t, from - 1e-6) << shown[i];
    EXPECT_LE(t, to + 1e-6) << shown[i];
    EXPECT_NE(shown[i].find(" 0:1 "), std::string::npos) << "only thread 1: " << shown[i];
    EXPECT_EQ(shown[i].find("iteration"), std::string::npos) << shown[i];
  }
  const auto bad =
      run_process({parperf_command().string(), "trace", "--from", "soon", (*tmp_ / "run").string()});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--from soon: not a time"), std::string::npos) << bad.err;
}

TEST_F(EventTrace, TheTraceFilterAndDepthLimitKeepNamesOutOfTheTraceButNotOutOfTheProfile) {
  const auto result =
      parperf_run(*tmp_ / "filtered", {"--trace", "--trace-filter", "-noise,-swe*", "--trace-depth", "1"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const analysis::RunData run = analysis::load_run(*tmp_ / "filtered");
  const auto threads = summarize(analysis::load_traces(run));
  for (const auto& [key, s] : threads) {
    EXPECT_EQ(s.enters.count("noise"), 0u);
    EXPECT_EQ(s.enters.count("sweep"), 0u);
    EXPECT_EQ(s.iterations.count("sweep"), 0u) << "iterations of an untraced interval are not traced";
    EXPECT_EQ(s.enters.at("step"), kSteps);
    EXPECT_LE(s.max_depth, 1);
  }
  EXPECT_EQ(profile_entries(run, 0, "noise"), static_cast<std::uint64_t>(kNoise)) << "the profile keeps it";
  const auto listing = run_process({parperf_command().string(), "trace", (*tmp_ / "filtered").string()});
  EXPECT_NE(listing.err.find("only names that pass the trace filter '-noise,-swe*' were traced"),
            std::string::npos)
      << listing.err;
}

TEST_F(EventTrace, AWriterThatFallsBehindMakesTheThreadsWaitAndTheTraceSaysHowLong) {
  ProcessOptions slow_disk;
  slow_disk.env = {{"PARPERF_TEST_TRACE_WRITER_DELAY_US", "20000"}};  // 20 ms a block
  const auto result = parperf_run(*tmp_ / "slow", {"--trace", "--trace-buffer", "4K"}, {}, slow_disk);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const analysis::TraceRun traces = analysis::load_traces(analysis::load_run(*tmp_ / "slow"));
  const format::TraceFile& trace = *traces.ranks.at(0).trace;
  ASSERT_TRUE(trace.clock);
  EXPECT_EQ(trace.clock->lost_events, 0u) << "waiting loses nothing";
  double waited_ns = 0;
  int waits = 0;
  for (const format::TraceBlock& block : trace.blocks)
    for (const format::TraceEvent& e : format::events_of(trace, block))
      if (e.kind == format::TraceEventKind::writer_wait) {
        ++waits;
        waited_ns += static_cast<double>(e.duration) * analysis::ns_per_tick(trace);
      }
  EXPECT_GT(waits, 0) << "a thread that found its other buffer unwritten records its wait";
  EXPECT_GT(trace.clock->writer_wait_ns, 10'000'000u) << "several 20 ms blocks were waited for";
  EXPECT_NEAR(waited_ns, static_cast<double>(trace.clock->writer_wait_ns), 1e-3 * waited_ns + 1000)
      << "the clock record sums the threads' waits";
  const auto listing = run_process({parperf_command().string(), "trace", (*tmp_ / "slow").string()});
  EXPECT_NE(listing.err.find("trace.0.ppt: the program's threads waited"), std::string::npos) << listing.err;
  const auto report = run_process({parperf_command().string(), "report", (*tmp_ / "slow").string()});
  EXPECT_NE(report.out.find("trace.0.ppt: the program's threads waited"), std::string::npos)
      << "the report says so too:\n"
      << report.out;
  EXPECT_NE(listing.out.find("for the trace writer to free a buffer"), std::string::npos);
}

TEST_F(EventTrace, ALocalDirectoryTraceIsMovedIntoTheRunDirectory) {
  const fs::path local = *tmp_ / "node-local";
  fs::create_directories(local);
  const auto result = parperf_run(*tmp_ / "moved", {"--trace", "--local-dir", local.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(fs::exists(*tmp_ / "moved" / "trace.0.ppt"));
  EXPECT_TRUE(fs::is_empty(local)) << "the per-run directory under --local-dir is removed";
  EXPECT_NO_THROW(analysis::load_traces(analysis::load_run(*tmp_ / "moved")));
}

TEST_F(EventTrace, AnUnwritableTraceDirectorySaysSoAndTheProgramAndItsProfileCarryOn) {
  const fs::path not_a_directory = *tmp_ / "a-file";
  std::ofstream(not_a_directory) << "x";
  const auto result = parperf_run(*tmp_ / "unwritable", {"--trace", "--local-dir", not_a_directory.string()});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.out.find("done"), std::string::npos);
  EXPECT_NE(result.err.find("cannot write the event trace to"), std::string::npos) << result.err;
  EXPECT_EQ(profile_entries(analysis::load_run(*tmp_ / "unwritable"), 0, "step"),
            static_cast<std::uint64_t>(kSteps));
}

TEST_F(EventTrace, AFullDiskStopsTheTraceWithOneMessageAndLeavesTheProfileIntact) {
  // A file size limit makes the trace's writes fail as a full disk would (EFBIG; SIGXFSZ ignored).
  const fs::path dir = *tmp_ / "full";
  const std::string command = "trap '' XFSZ; ulimit -f 16; exec '" + parperf_command().string() +
                              "' run -q -o '" + dir.string() +
                              "' --trace --trace-buffer 8K -- '" PARPERF_PROGRAM_EVENT_TRACE_PROGRAM "'";
  const auto result = run_process({"/bin/sh", "-c", command});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.out.find("done"), std::string::npos) << "the program ran to its end";
  const std::string message = "the event trace stopped: cannot write";
  const auto first = result.err.find(message);
  EXPECT_NE(first, std::string::npos) << result.err;
  EXPECT_EQ(result.err.find(message, first + 1), std::string::npos) << "said once:\n" << result.err;
  const analysis::RunData run = analysis::load_run(dir);
  EXPECT_EQ(profile_entries(run, 1, "step"), static_cast<std::uint64_t>(kSteps)) << "the profile is whole";
  const analysis::TraceRun traces = analysis::load_traces(run);  // cut short, read up to its last block
  ASSERT_EQ(traces.ranks.size(), 1u);
  EXPECT_FALSE(traces.ranks[0].trace->blocks.empty());
}

TEST_F(EventTrace, AProgramKilledWithSigkillLeavesATraceThatIsReadUpToItsLastBlock) {
  const fs::path dir = *tmp_ / "killed";
  const auto result = parperf_run(dir, {"--trace", "--trace-buffer", "4K"}, {"kill"});
  EXPECT_EQ(result.signal == SIGKILL || result.exit_code == 128 + SIGKILL, true) << describe(result);
  const auto listing = run_process({parperf_command().string(), "trace", dir.string()});
  ASSERT_EQ(listing.exit_code, 0) << describe(listing);
  EXPECT_NE(listing.err.find("trace.0.ppt: the trace ends early"), std::string::npos) << listing.err;
  EXPECT_NE(listing.out.find("'step'"), std::string::npos);
  const analysis::TraceRun traces = analysis::load_traces(analysis::load_run(dir));
  EXPECT_FALSE(traces.ranks.at(0).trace->clock) << "a killed program cannot close its trace";
  EXPECT_GT(traces.ranks.at(0).trace->blocks.size(), 10u) << "the writer wrote blocks while the program ran";
}

}  // namespace
}  // namespace parperf::test
