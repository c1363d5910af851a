// Scenario: call-path samples in the event trace, exported to Perfetto and OTF2. hot_functions.c (gcc,
// frame pointers) runs two threads under `parperf run --trace --sample`, each spending 300 ms of its
// CPU time in f and 100 ms in g; `parperf export --perfetto --otf2` writes the timeline, which the
// test decodes with a protobuf reader of its own (tests/unit/protobuf_test_reader.hpp) and with OTF2's
// otf2-print. Expected, by construction:
//
// - the exported samples are exactly the trace's (each weighted sample written weight times), and the
//   trace's plus those it reports lost are the profile's (the handler feeds both from one sample;
//   samples the call-path table dropped are in neither: the table does not fill here);
// - f has 75 % of the exported samples, ± 5 points (as the profile's shares, sampled_call_paths_test);
// - every sample lies inside the run, on a thread Perfetto knows, inside the interval it is attributed
//   to: the stack's outermost frame is that interval (the program is the only one of this
//   unannotated program) and the time lies between its thread's start and end, give or take 0.1 ms
//   (the trace's and the profile's clock calibrations may differ by a few parts per million);
// - the OTF2 archive has as many CallingContextSample records as the Perfetto file has samples (the
//   trace's, weights counted), f the leaf of 75 % of them ± 5 points, every calling context under
//   the program's (the only interval), every sample of the CPU-time timer; otf2-print reads it
//   without complaint.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/trace_samples.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "unit/protobuf_test_reader.hpp"

namespace parperf::test {
namespace {

constexpr double kShareTolerance = 0.05;
constexpr double kCalibrationSlackNs = 100'000;

struct ExportedSample {
  std::uint64_t ts = 0;
  std::int64_t pid = 0, tid = 0;
  std::vector<std::string> functions;  // outermost first
};

struct ExportedTrace {
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> threads;  // (pid, tid) -> "thread N"
  std::vector<ExportedSample> samples;
  std::vector<std::string> problems;
};

double ms(std::uint64_t ns) { return static_cast<double>(ns) * 1e-6; }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The thread tracks and perf samples of a Perfetto file, each sample's callstack resolved through
// the interned frames and function names (InternedData 5, 6, 7).
ExportedTrace decode(const std::string& file) {
  ExportedTrace t;
  std::map<std::uint64_t, std::string> function_names;
  std::map<std::uint64_t, std::uint64_t> frame_names;  // frame iid -> function name iid
  std::map<std::uint64_t, std::vector<std::uint64_t>> callstacks;
  for (const ProtoField& packet : read_proto(file)) {
    const std::vector<ProtoField> fields = read_proto(packet.bytes);
    if (const ProtoField* interned = find_field(fields, 12))
      for (const ProtoField& entry : read_proto(interned->bytes)) {
        const std::vector<ProtoField> e = read_proto(entry.bytes);
        const std::uint64_t iid = find_field(e, 1)->value;
        if (entry.number == 5) function_names[iid] = std::string(find_field(e, 2)->bytes);
        if (entry.number == 6) frame_names[iid] = find_field(e, 2)->value;
        if (entry.number == 7)
          for (const ProtoField& f : e)
            if (f.number == 2) callstacks[iid].push_back(f.value);
      }
    if (const ProtoField* descriptor = find_field(fields, 60)) {
      const std::vector<ProtoField> d = read_proto(descriptor->bytes);
      if (const ProtoField* thread = find_field(d, 4)) {
        const std::vector<ProtoField> th = read_proto(thread->bytes);
        t.threads[{static_cast<std::int64_t>(find_field(th, 1)->value),
                   static_cast<std::int64_t>(find_field(th, 2)->value)}] =
            std::string(find_field(th, 5)->bytes);
      }
    }
    if (const ProtoField* sample = find_field(fields, 66)) {
      const std::vector<ProtoField> s = read_proto(sample->bytes);
      ExportedSample out;
      out.ts = find_field(fields, 8)->value;
      out.pid = static_cast<std::int64_t>(find_field(s, 2)->value);
      out.tid = static_cast<std::int64_t>(find_field(s, 3)->value);
      const std::uint64_t callstack = find_field(s, 4)->value;
      if (!callstacks.count(callstack))
        t.problems.push_back("a sample's callstack is not interned before it");
      for (const std::uint64_t frame : callstacks[callstack])
        out.functions.push_back(function_names[frame_names[frame]]);
      t.samples.push_back(std::move(out));
    }
  }
  return t;
}

// The program run once under --trace --sample and exported once to both formats, for every test.
class TracedSamples : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir;
    const auto run = run_process({parperf_command().string(), "run", "-q", "--trace", "--sample", "-o",
                                  (*tmp_ / "run").string(), "--", PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP, "2"});
    setup_problem_ = run.exit_code != 0 ? describe(run) : "";
    if (!setup_problem_.empty()) return;
    const auto exported =
        run_process({parperf_command().string(), "export", (*tmp_ / "run").string(), "--perfetto",
                     (*tmp_ / "t.pftrace").string(), "--otf2", (*tmp_ / "otf2").string()});
    setup_problem_ = exported.exit_code != 0 ? describe(exported) : "";
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(setup_problem_.empty()) << setup_problem_; }

  static TempDir* tmp_;
  static std::string setup_problem_;
};
TempDir* TracedSamples::tmp_ = nullptr;
std::string TracedSamples::setup_problem_;

TEST_F(TracedSamples, PerfettoShowsEverySampleOnItsThreadInsideItsIntervalWithFsShare) {
  const TempDir& tmp = *tmp_;

  // What the run recorded: the profile's samples, the trace's and those it lost.
  const analysis::RunData data = analysis::load_run(tmp / "run");
  ASSERT_EQ(data.profiles.size(), 1u);
  const format::Profile& profile = data.profiles[0];
  ASSERT_TRUE(profile.call_paths) << "the run was sampled: its profile must have call paths";
  std::uint64_t profile_samples = 0, dropped = 0;
  for (const format::CallPathThread& thread : profile.call_paths->threads)
    profile_samples += thread.samples, dropped += thread.dropped;
  const analysis::TraceSamples traced = analysis::load_trace_samples(analysis::load_traces(data));
  ASSERT_EQ(dropped, 0u) << "the call-path table filled up: this program has a handful of paths";
  EXPECT_EQ(traced.samples + traced.lost, profile_samples)
      << "the profile counted " << profile_samples << " samples; the trace holds " << traced.samples
      << " and reports " << traced.lost << " lost: samples vanished between the handler and the trace";
  EXPECT_GE(profile_samples, 600u) << "two threads of 400 ms of CPU time each at 1 kHz: about 800 samples";

  const ExportedTrace perfetto = decode(read_file(tmp / "t.pftrace"));
  EXPECT_TRUE(perfetto.problems.empty()) << testing::PrintToString(perfetto.problems);
  EXPECT_EQ(perfetto.samples.size(), traced.samples)
      << "the Perfetto file has " << perfetto.samples.size() << " samples, the trace " << traced.samples
      << " (weights counted): the export lost or invented samples";

  std::uint64_t in_f = 0;
  std::uint64_t run_end_ns = 0;
  for (const format::Thread& thread : profile.threads) run_end_ns = std::max(run_end_ns, thread.end_ns);
  for (const ExportedSample& s : perfetto.samples) {
    const auto thread = perfetto.threads.find({s.pid, s.tid});
    ASSERT_NE(thread, perfetto.threads.end())
        << "a sample at " << s.ts << " ns on a thread Perfetto has no track of";
    ASSERT_FALSE(s.functions.empty());
    in_f += s.functions.back() == "f";
    EXPECT_EQ(s.functions.front(), "program")
        << "a sample at " << s.ts << " ns is not attributed to the program interval, the only one: "
        << testing::PrintToString(s.functions);
    EXPECT_LE(static_cast<double>(s.ts), static_cast<double>(run_end_ns) + kCalibrationSlackNs)
        << "a sample at " << ms(s.ts) << " ms, after the run ended at " << ms(run_end_ns) << " ms";
    const std::uint32_t index =
        static_cast<std::uint32_t>(std::stoul(thread->second.substr(7)));  // "thread N"
    for (const format::Thread& t : profile.threads)
      if (t.index == index) {
        EXPECT_GE(static_cast<double>(s.ts) + kCalibrationSlackNs, static_cast<double>(t.start_ns))
            << thread->second << ": a sample at " << ms(s.ts) << " ms, before its program interval began at "
            << ms(t.start_ns) << " ms";
        EXPECT_LE(static_cast<double>(s.ts), static_cast<double>(t.end_ns) + kCalibrationSlackNs)
            << thread->second << ": a sample at " << ms(s.ts) << " ms, after its program interval ended at "
            << ms(t.end_ns) << " ms";
      }
  }
  ASSERT_FALSE(perfetto.samples.empty());
  const double f_share = static_cast<double>(in_f) / static_cast<double>(perfetto.samples.size());
  EXPECT_NEAR(f_share, 0.75, kShareTolerance)
      << "f spins 300 of each thread's 400 ms of CPU time, yet has " << in_f << " of the "
      << perfetto.samples.size() << " samples in the Perfetto timeline";
}

// The archive's samples, read by otf2-print: their count, f's share as the leaf of their calling
// contexts ("f@hot_functions.c:37": the region, then the source line of the sample).
TEST_F(TracedSamples, Otf2HasEverySampleAsACallingContextSampleWithFsShare) {
  const TempDir& tmp = *tmp_;
  const auto printed = run_process({PARPERF_OTF2_PRINT, (tmp / "otf2" / "traces.otf2").string()});
  ASSERT_EQ(printed.exit_code, 0) << describe(printed);
  EXPECT_EQ(printed.err, "") << "otf2-print complained of the archive";
  const ExportedTrace perfetto = decode(read_file(tmp / "t.pftrace"));
  const std::string context_key = "Calling Context: \"";
  std::uint64_t samples = 0, in_f = 0;
  for (const std::string& line : lines_of(printed.out)) {
    if (line.rfind("CALLING_CONTEXT_SAMPLE ", 0) != 0) continue;
    ++samples;
    const std::size_t context = line.find(context_key);
    ASSERT_NE(context, std::string::npos) << line;
    const std::size_t from = context + context_key.size();
    in_f += line.substr(from, line.find_first_of("@\"", from) - from) == "f";
    EXPECT_NE(line.find("Interrupt Generator: \"parperf CPU-time timer\""), std::string::npos) << line;
  }
  EXPECT_EQ(samples, perfetto.samples.size())
      << "the OTF2 archive has " << samples << " CallingContextSample records, the Perfetto file "
      << perfetto.samples.size() << " samples: one of the exports lost or invented samples";
  const analysis::RunData data = analysis::load_run(tmp / "run");
  EXPECT_EQ(samples, analysis::load_trace_samples(analysis::load_traces(data)).samples)
      << "the archive's samples are not the trace's, weights counted";
  ASSERT_GT(samples, 0u);
  const double f_share = static_cast<double>(in_f) / static_cast<double>(samples);
  EXPECT_NEAR(f_share, 0.75, kShareTolerance)
      << "f spins 300 of each thread's 400 ms of CPU time, yet is the leaf of " << in_f << " of the "
      << samples << " samples in the OTF2 archive";
  // Every stack starts with the interval its samples were taken in: the program, in this program.
  const auto defs = run_process({PARPERF_OTF2_PRINT, "-G", (tmp / "otf2" / "traces.otf2").string()});
  ASSERT_EQ(defs.exit_code, 0) << describe(defs);
  int roots = 0;
  for (const std::string& line : lines_of(defs.out)) {
    const bool root =
        line.rfind("CALLING_CONTEXT ", 0) == 0 && line.find("Parent: UNDEFINED") != std::string::npos;
    if (root) {
      ++roots;
      EXPECT_NE(line.find("Region: \"program\""), std::string::npos)
          << "a root context that is not the program: " << line;
    }
  }
  EXPECT_EQ(roots, 1) << "the calling-context tree has one root, the program:\n" << defs.out;
}

}  // namespace
}  // namespace parperf::test
