// Scenario: call-path samples in the event trace, exported to Perfetto. hot_functions.c (gcc, frame
// pointers) runs two threads under `parperf run --trace --sample`, each spending 300 ms of its CPU
// time in f and 100 ms in g; `parperf export --perfetto` writes the timeline, which the test decodes
// with a protobuf reader of its own (tests/unit/protobuf_test_reader.hpp). Expected, by construction:
//
// - the exported samples are exactly the trace's (each weighted sample written weight times), and the
//   trace's plus those it reports lost are the profile's (the handler feeds both from one sample;
//   samples the call-path table dropped are in neither: the table does not fill here);
// - f has 75 % of the exported samples, ± 5 points (as the profile's shares, sampled_call_paths_test);
// - every sample lies inside the run, on a thread Perfetto knows, inside the interval it is attributed
//   to: the stack's outermost frame is that interval (the program is the only one of this
//   unannotated program) and the time lies between its thread's start and end, give or take 0.1 ms
//   (the trace's and the profile's clock calibrations may differ by a few parts per million).
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

TEST(TracedSamples, PerfettoShowsEverySampleOnItsThreadInsideItsIntervalWithFsShare) {
  TempDir tmp;
  const auto run = run_process({parperf_command().string(), "run", "-q", "--trace", "--sample", "-o",
                                (tmp / "run").string(), "--", PARPERF_PROGRAM_HOT_FUNCTIONS_GCC_FP, "2"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto exported = run_process({parperf_command().string(), "export", (tmp / "run").string(),
                                     "--perfetto", (tmp / "t.pftrace").string()});
  ASSERT_EQ(exported.exit_code, 0) << describe(exported);

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

}  // namespace
}  // namespace parperf::test
