// Scenario: call-path sampling unwinds code built -O2 without frame pointers in every language and
// runtime parperf measures (C++, Fortran, OpenMP on libgomp and libomp, MPI), from samples that land
// mostly in libm, its PLT stubs and the clock's system call.
//
// Each thread (or rank) of the programs spends 300 ms of its CPU time in heavy and 100 ms in light,
// called through a caller of its own. Expected:
// - heavy has 75 % of the samples in heavy or light. The samples are n periods of 1 ms of CPU time;
//   counted as independent draws the share's standard error is sqrt(p (1 - p) / n), 2.2 points for
//   400 samples: the tolerance is 4 of them (a test failing once in 16,000 runs by chance). A walk
//   that loses heavy below libm moves the share far outside it.
// - every one of those samples' paths starts at its thread's first frame and passes through main
//   (the program's, or the one calling the outlined parallel region) or, on an OpenMP worker, through
//   start_thread and the outlined region.
// - samples not unwound at most 1 %: none is expected (every module here has call-frame tables), and
//   the PLT stubs alone, the one piece of linker-made code, hold about 2 % of these samples (9 of 405
//   seen with g++): a walk that could not leave them would fail.
// - no frame of parperf's own in any path, and every frame in the program's own code named (its PLT
//   stubs as "cos@plt").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

constexpr double kHeavyShare = 0.75;          // 300 of the 400 ms of CPU time
constexpr double kMinSamplesPerThread = 300;  // 400 ms at 1 kHz: 400, less a few at the ends
constexpr double kNotUnwoundFraction = 0.01;  // see above

bool has(const std::string& frame, const char* word) { return frame.find(word) != std::string::npos; }

std::string fmt_path(const std::vector<std::string>& frames) {
  std::string out;
  for (const std::string& frame : frames) out += (out.empty() ? "" : " > ") + frame;
  return out;
}

// A folded stack of `parperf report --folded`: "interval;...;outermost;...;leaf count", split.
struct FoldedPath {
  std::vector<std::string> frames;  // the interval path's names first, then the call path's
  double samples = 0;
};

// Every sampled path (the JSON report lists only the most frequent); with --internals when asked.
std::vector<FoldedPath> folded_paths(const std::filesystem::path& run, bool internals = false) {
  std::vector<std::string> argv = {parperf_command().string(), "report", "--folded"};
  if (internals) argv.push_back("--internals");
  argv.push_back(run.string());
  const ProcessResult folded = run_process(argv);
  EXPECT_EQ(folded.exit_code, 0) << describe(folded);
  std::vector<FoldedPath> paths;
  for (const std::string& line : lines_of(folded.out)) {
    const std::size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    FoldedPath path;
    path.samples = std::stod(line.substr(space + 1));
    for (std::size_t begin = 0; begin <= space;) {
      const std::size_t end = std::min(line.find(';', begin), space);
      path.frames.push_back(line.substr(begin, end - begin));
      begin = end + 1;
    }
    paths.push_back(std::move(path));
  }
  return paths;
}

bool in_path(const std::vector<std::string>& frames, const char* word) {
  return std::any_of(frames.begin(), frames.end(), [&](const std::string& f) { return has(f, word); });
}

bool in_path_exactly(const std::vector<std::string>& frames, const char* name) {
  return std::find(frames.begin(), frames.end(), name) != frames.end();
}

// Whether a path passes through the caller of an OpenMP parallel region's outlined function: gcc's
// main._omp_fn.0 is named main by its debug information, clang's is .omp_outlined.
bool through_outlined_region(const std::vector<std::string>& frames) {
  for (std::size_t i = 1; i < frames.size(); ++i)
    if (has(frames[i], "heavy") || has(frames[i], "through"))
      return frames[i - 1] == "main" || has(frames[i - 1], "omp_outlined");
  return false;
}

struct Expected {
  int threads = 1;      // threads or ranks, each with 400 ms of work
  bool openmp = false;  // the work runs in a parallel region
};

void expect_unwound(const std::filesystem::path& run, const std::string& program_name,
                    const Expected& expected) {
  const nlohmann::json report = report_json(run);
  const nlohmann::json& samples = field(report, "samples");
  double heavy = 0, light = 0, whole = 0;
  std::string lost;  // the first paths that do not reach their start, for the failure message
  for (const FoldedPath& path : folded_paths(run)) {
    const auto& frames = path.frames;
    const bool in_heavy = in_path(frames, "heavy"), in_light = in_path(frames, "light");
    if (!in_heavy && !in_light) continue;
    (in_heavy ? heavy : light) += path.samples;
    // The thread's first frame (the process's _start, a thread's clone), then main or start_thread.
    const bool started = in_path_exactly(frames, "_start") || in_path(frames, "clone");
    bool reached = started && (in_path_exactly(frames, "main") || in_path_exactly(frames, "start_thread"));
    if (expected.openmp) reached = reached && through_outlined_region(frames);
    if (reached)
      whole += path.samples;
    else if (lost.size() < 2000)
      lost += fmt_path(frames) + " x " + std::to_string(static_cast<int>(path.samples)) + "\n";
    for (const std::string& frame : frames) {
      EXPECT_FALSE(has(frame, "parperf")) << "parperf's own frame " << frame << " in a sampled path";
      // Every frame of the program's own code is named, its PLT stubs too ("cos@plt").
      EXPECT_FALSE(frame.starts_with("0x") && has(frame, ("(" + program_name + ")").c_str()))
          << "a frame of the program without a name: " << fmt_path(frames);
    }
  }
  for (const auto& interval : samples["intervals"])
    for (const auto& function : interval["functions"]) {
      const std::string name = text_of(function, "function"), file = text_of(function, "file");
      EXPECT_FALSE(has(name, "parperf") || has(file, "src/runtime/"))
          << "parperf's own function " << name << " (" << file << ") in a sampled path";
    }
  const double n = heavy + light;
  ASSERT_GE(n, kMinSamplesPerThread * expected.threads)
      << "each of " << expected.threads << " threads spins 400 ms of CPU time at 1 kHz: about 400 samples "
      << "each in heavy or light";
  const double share = heavy / n;
  const double tolerance = 4 * std::sqrt(kHeavyShare * (1 - kHeavyShare) / n);
  EXPECT_NEAR(share, kHeavyShare, tolerance)
      << "heavy spins 300 of the 400 ms: " << heavy << " of " << n << " samples; light " << light;
  EXPECT_EQ(whole, n) << n - whole << " of the " << n
                      << " samples in heavy or light do not reach the thread's start through main "
                         "(or start_thread)"
                      << (expected.openmp ? " and the parallel region's outlined function" : "") << ":\n"
                      << lost;
  const double all = samples.value("samples", 0.0);
  EXPECT_LE(samples.value("not_unwound", -1.0), kNotUnwoundFraction * all)
      << "walks stopped before the thread's start in " << samples.value("not_unwound", -1.0) << " of " << all
      << " samples";
  EXPECT_GE(samples.value("not_unwound", -1.0), 0) << "no count of samples not unwound";
}

// `source`: PARPERF_SAMPLE_SOURCE, the default's when null.
void expect_unwound_program(const char* program, const Expected& expected, const char* source = nullptr) {
  TempDir tmp;
  ProcessOptions options;
  options.env = {{"PARPERF_SAMPLE_HZ", "1000"}};
  if (source) options.env.emplace_back("PARPERF_SAMPLE_SOURCE", source);
  const auto result = measure(tmp / "run", {program}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  expect_unwound(tmp / "run", std::filesystem::path(program).filename().string(), expected);
}

TEST(SampledLanguages, CppByGxxWithoutFramePointers) {
  expect_unwound_program(PARPERF_PROGRAM_HOT_CALLS_GXX, {});
}
TEST(SampledLanguages, CppByClangxxWithoutFramePointers) {
  expect_unwound_program(PARPERF_PROGRAM_HOT_CALLS_CLANGXX, {});
}
TEST(SampledLanguages, FortranByGfortranWithoutFramePointers) {
  expect_unwound_program(PARPERF_PROGRAM_HOT_CALLS_GFORTRAN, {});
}
// gcc's program runs on libomp under `parperf run` (it replaces libgomp), clang's on libomp anyway.
TEST(SampledLanguages, OpenMpByGccWithoutFramePointersTwoThreads) {
  expect_unwound_program(PARPERF_PROGRAM_OMP_SPIN_GCC, {2, true});
}
TEST(SampledLanguages, OpenMpByClangWithoutFramePointersTwoThreads) {
  expect_unwound_program(PARPERF_PROGRAM_OMP_SPIN_CLANG, {2, true});
}
// 100 000 empty parallel regions of 2 threads sampled at 10 kHz: a good part of the time is the
// OpenMP runtime's forks and joins and parperf's callbacks from it (a few microseconds each). A
// sample inside a callback counts for the runtime's code that called it: parperf's own functions
// never end a path (nor stand in one).
TEST(SampledLanguages, ASampleInsideParperfsOpenMpCallbackCountsForTheRuntimeThatCalledIt) {
  TempDir tmp;
  ProcessOptions options;
  options.env = {{"PARPERF_SAMPLE_HZ", "10000"}, {"OMP_NUM_THREADS", "2"}};
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_TINY_REGIONS_CLANG, "100000"}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  double in_runtime = 0;
  for (const FoldedPath& path : folded_paths(tmp / "run")) {
    if (in_path(path.frames, "libomp")) in_runtime += path.samples;
    for (const std::string& frame : path.frames)
      EXPECT_FALSE(has(frame, "parperf"))
          << "parperf's own frame " << frame << " in " << fmt_path(path.frames);
  }
  EXPECT_GT(in_runtime, 0) << "the regions' forks and joins must have been sampled in the OpenMP runtime";
}

// A library's constructor working before main (initializer_spin.c): the loader runs it from its
// entry code, which has no table entry and no caller. The walks end there as at the thread's first
// frame, through the loader's _dl_init, not "[unwinding stopped]".
TEST(SampledLanguages, ALibrarysConstructorBeforeMainIsUnwoundToTheLoadersEntry) {
  TempDir tmp;
  ProcessOptions options;
  options.env = {{"PARPERF_SAMPLE_HZ", "1000"}};
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_INITIALIZER_BEFORE_MAIN}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  double in_constructor = 0, through_loader = 0;
  std::string stopped;
  for (const FoldedPath& path : folded_paths(tmp / "run")) {
    if (!in_path(path.frames, "heavy")) continue;
    in_constructor += path.samples;
    if (in_path_exactly(path.frames, "_dl_init")) through_loader += path.samples;
    if (in_path(path.frames, "[unwinding stopped]") && stopped.size() < 2000)
      stopped += fmt_path(path.frames) + " x " + std::to_string(static_cast<int>(path.samples)) + "\n";
  }
  // 300 ms of CPU time at 1 kHz: about 300 samples; 100 tells that the constructor was sampled.
  ASSERT_GT(in_constructor, 100) << "the constructor's 300 ms of CPU time were not sampled";
  EXPECT_EQ(through_loader, in_constructor) << "every walk from the constructor goes through the loader";
  EXPECT_EQ(stopped, "") << "walks that stopped below the loader's entry code, the main thread's first frame";
}

// The same, sampled without a signal a sample (runtime/perf_sample_buffer.hpp): each walk reads a
// copy of the stack's top, and the threads' samples are taken out at their OpenMP boundaries and
// at a second clock.
TEST(SampledLanguages, CppByGxxSampledIntoBuffers) {
  expect_unwound_program(PARPERF_PROGRAM_HOT_CALLS_GXX, {}, "perf-buffer");
}
TEST(SampledLanguages, FortranByGfortranSampledIntoBuffers) {
  expect_unwound_program(PARPERF_PROGRAM_HOT_CALLS_GFORTRAN, {}, "perf-buffer");
}
TEST(SampledLanguages, OpenMpByGccSampledIntoBuffersTwoThreads) {
  expect_unwound_program(PARPERF_PROGRAM_OMP_SPIN_GCC, {2, true}, "perf-buffer");
}

TEST(SampledLanguages, MpiWithoutFramePointersTwoRanks) {
  TempDir tmp;
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const auto result =
      parperf_run_np_with(2, tmp / "run", {"--sample=1000"}, {PARPERF_PROGRAM_MPI_SPIN}, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  expect_unwound(tmp / "run", "mpi_spin", {2, false});
}

// Samples taken inside MPI_Init and MPI_Finalize are start-up's and shut-down's: counted apart, in no
// interval. Sampled by the wall clock, which keeps sampling while MPI_Init waits for the other rank
// and starts its components (a few hundred ms: that many samples at 1 kHz), they would otherwise be
// `program`'s, at MPI_Init or, with --internals, in Open MPI's and hwloc's start-up below it.
bool start_up_frame(const std::string& frame) {
  for (const char* word : {"MPI_Init", "MPI_Finalize", "ompi_", "opal_", "orte_", "hwloc", "pmix", "mca_"})
    if (has(frame, word)) return true;
  return false;
}

bool parperf_frame(const std::string& frame) { return frame.rfind("parperf", 0) == 0; }

// Where in `frames` the program's call to MPI_Init or MPI_Finalize (parperf's wrapper) is, or npos.
std::size_t start_up_call(const std::vector<std::string>& frames) {
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i] == "MPI_Init" || frames[i] == "MPI_Finalize") return i;
  return std::string::npos;
}

// A sample in the few instructions of parperf's wrapper before it switches the process to start-up
// or shut-down, or after it switches back to running: with --internals, the path ends in the wrapper
// or in parperf's own frames below it, never in Open MPI's.
bool in_phase_switch(const std::vector<std::string>& frames) {
  const std::size_t call = start_up_call(frames);
  return call != std::string::npos &&
         std::all_of(frames.begin() + static_cast<std::ptrdiff_t>(call) + 1, frames.end(), parperf_frame);
}

// `program` run on 2 ranks under `parperf run`, sampled at 1 kHz of the wall clock, into run_dir.
auto wall_sampled_mpi_run(const std::filesystem::path& run_dir, const char* program) {
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  return parperf_run_np_with(2, run_dir, {"--sample=1000", "--sample-clock=wall"}, {program}, options);
}

TEST(SampledStartUp, MpiInitAndFinalizeSamplesAreCountedApartNotInProgram) {
  TempDir tmp;
  const auto result = wall_sampled_mpi_run(tmp / "run", PARPERF_PROGRAM_MPI_SPIN);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const nlohmann::json samples = field(report_json(tmp / "run"), "samples");
  EXPECT_GT(samples.value("start_up", 0.0), 0)
      << "MPI_Init's start-up lasts a few hundred ms of the wall clock: its samples must be counted apart; "
      << samples.dump().substr(0, 600);
  EXPECT_GE(samples.value("shut_down", -1.0), 0) << "no count of shut-down samples";
  // The wrapper's switch between phases is a store a few instructions into MPI_Init and
  // MPI_Finalize (and out of MPI_Init): a sample can land there, before the store or after the
  // switch back, and is then the program's. Each window is well under a microsecond against a
  // millisecond between samples, so at most one sample a window and rank: 3 windows on 2 ranks.
  constexpr double kMostInPhaseSwitches = 3 * 2;
  double in_switches = 0;
  for (const FoldedPath& path : folded_paths(tmp / "run", true)) {
    if (in_phase_switch(path.frames)) {
      in_switches += path.samples;
      continue;
    }
    // Open MPI's own frames are expected below the program's MPI_Barrier only.
    if (in_path_exactly(path.frames, "MPI_Barrier")) continue;
    for (const std::string& frame : path.frames)
      EXPECT_FALSE(start_up_frame(frame))
          << "a start-up or shut-down sample in the program's call paths (--internals): "
          << fmt_path(path.frames);
  }
  EXPECT_LE(in_switches, kMostInPhaseSwitches)
      << "more samples in parperf's switch between phases than its few instructions can take";
  // Without --internals the same samples end at the program's MPI_Init or MPI_Finalize; no other.
  double at_start_up_calls = 0;
  for (const FoldedPath& path : folded_paths(tmp / "run")) {
    if (in_path_exactly(path.frames, "MPI_Barrier")) continue;
    const std::size_t call = start_up_call(path.frames);
    if (call != std::string::npos && call + 1 == path.frames.size()) {
      at_start_up_calls += path.samples;
      continue;
    }
    for (const std::string& frame : path.frames)
      EXPECT_FALSE(start_up_frame(frame))
          << "a start-up or shut-down sample in the program's call paths: " << fmt_path(path.frames);
  }
  EXPECT_EQ(at_start_up_calls, in_switches)
      << "samples at the program's MPI_Init or MPI_Finalize that are not parperf's switch between phases";
  const ProcessResult text =
      run_process({parperf_command().string(), "report", "--functions", (tmp / "run").string()});
  EXPECT_NE(text.out.find("during start-up"), std::string::npos)
      << "the report must say how many samples start-up took:\n"
      << text.out;
}

// What each rank of mpi_thread_through_init printed: "rank R: init S s, thread outside init S s".
struct InitTimes {
  double init_ms = 0;            // MPI_Init's wall-clock time on the rank
  double thread_outside_ms = 0;  // its spinning thread's time outside MPI_Init
};

std::vector<InitTimes> init_times(const std::string& output) {
  std::vector<InitTimes> ranks;
  for (const std::string& line : lines_of(output)) {
    int rank = 0;
    double init = 0, outside = 0;
    if (std::sscanf(line.c_str(), "rank %d: init %lf s, thread outside init %lf s", &rank, &init, &outside) ==
        3)
      ranks.push_back({init * 1e3, outside * 1e3});
  }
  return ranks;
}

// A sample is counted by what the process does when its handler runs, and the timer's signal waits
// for its thread to get a core: at each boundary of MPI_Init a thread crosses, one sample may carry
// the periods that fell due on the other side while the thread waited, at most a scheduling period
// of the kernel (tens of ms with the ranks' 4 spinning threads and the test runner on 2 cores), plus
// the period that straddles the boundary.
constexpr double kBoundarySamples = 25 + 1;

// The process's start-up is every thread's: a thread the program started before MPI_Init keeps
// running through it, and its samples meanwhile are counted apart like the initialising thread's
// (mpi_thread_through_init.c). The MPI library's own threads (Open MPI's progress thread, PMIx's,
// libevent's loops) are not the program's: none of them is sampled, so every sample in `program` is
// on main's thread or on the program's thread.
TEST(SampledStartUp, ProgramThreadsSamplesDuringMpiInitAreCountedApartAndLibraryThreadsAreNotSampled) {
  TempDir tmp;
  const auto result = wall_sampled_mpi_run(tmp / "run", PARPERF_PROGRAM_MPI_THREAD_THROUGH_INIT);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::vector<InitTimes> ranks = init_times(result.out);
  ASSERT_EQ(ranks.size(), 2u) << "each rank prints its MPI_Init time: " << describe(result);
  double init_ms = 0, allowed_in_program = 0;
  for (const InitTimes& rank : ranks) {
    init_ms += rank.init_ms;
    // At 1 kHz, a sample per ms of the thread's time outside MPI_Init, and its two boundaries.
    allowed_in_program += rank.thread_outside_ms + 2 * kBoundarySamples;
  }
  // Counted in `program`, the thread's samples would be about init_ms: the test tells only when
  // that is well above what is allowed.
  ASSERT_GT(init_ms, 2 * allowed_in_program)
      << "MPI_Init lasted " << init_ms
      << " ms over the ranks: too short to tell the thread's start-up samples";

  double thread_in_program = 0;
  std::string foreign;  // the first paths on threads the program did not start
  for (const FoldedPath& path : folded_paths(tmp / "run")) {
    const auto& frames = path.frames;
    if (in_path_exactly(frames, "spin_through_init")) thread_in_program += path.samples;
    // Main's thread outside main: before it, the loader runs the libraries' initializers (`_dl_init`,
    // from its entry); after it returned, the exit handlers and the libraries' destructors (seen
    // once: `_dl_call_fini > __do_global_dtors_aux`). Still the program's time, and only the main
    // thread runs them.
    const bool outside_main =
        in_path_exactly(frames, "_dl_init") || in_path_exactly(frames, "_dl_call_fini") ||
        in_path_exactly(frames, "_dl_fini") || in_path_exactly(frames, "__run_exit_handlers") ||
        in_path_exactly(frames, "exit");
    if (!in_path_exactly(frames, "main") && !in_path_exactly(frames, "spin_through_init") && !outside_main &&
        foreign.size() < 2000)
      foreign += fmt_path(frames) + " x " + std::to_string(static_cast<int>(path.samples)) + "\n";
  }
  EXPECT_EQ(foreign, "") << "samples in `program` on threads the program did not start (the MPI library's?)";
  EXPECT_LE(thread_in_program, allowed_in_program)
      << "the program's thread spun through MPI_Init (" << init_ms << " ms over the ranks) and only "
      << allowed_in_program - 4 * kBoundarySamples << " ms outside it: its samples during start-up must be "
      << "counted apart, not in `program`";

  const nlohmann::json samples = field(report_json(tmp / "run"), "samples");
  // Both threads of each rank spend MPI_Init's time in start-up: a sample per ms each, less what
  // may cross its boundaries.
  const double expected_start_up = 2 * init_ms - 2 * static_cast<double>(ranks.size()) * 2 * kBoundarySamples;
  EXPECT_GE(samples.value("start_up", 0.0), expected_start_up)
      << "MPI_Init lasted " << init_ms << " ms over the ranks, on two sampled threads each: about "
      << 2 * init_ms << " samples during start-up; " << samples.dump().substr(0, 600);
}

}  // namespace
}  // namespace parperf::test
