// The OpenMP characteristics against programs whose losses are known by construction (each
// program's header states its ground truth). Every C program runs in its clang build (libomp
// directly) and its gcc build (libgomp, replaced by libomp under `parperf run`).
//
// Bounds: the programs' work is sleeping to wall-clock deadlines (common/burn.h), which lasts at least
// what it asks for, plus a wake-up, and needs no core, so the lengths hold while other processes
// compete for the cores (a spinning thread would lose its core near its deadline and arrive late at
// the barrier, moving waits both ways by time slices). What remains is scheduling noise: a thread
// that wakes when every core is taken starts late, and a waiting libomp thread spins and may lose its
// core when the last thread arrives. The programs measure the first (support/sleep_overshoot.hpp) and
// the bounds widen by exactly that; for the rest they allow 10 ms per repetition below and 40 ms per
// run above, and the failure says how busy the machine was. A figure that is exactly a sleep's length
// is bounded below by it, less the clock calibration's error (support/clock_tolerance.hpp). The checks
// that must hold on any machine (what is wait and what is work) are structural.
#include <gtest/gtest.h>
#include <sched.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <tuple>

#include "format/profile_reader.hpp"
#include "format/records.hpp"
#include "support/clock_tolerance.hpp"
#include "support/machine_load.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/sleep_overshoot.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

std::int64_t site_line(const std::string& source, const std::string& name) {
  return marker_line(std::filesystem::path(OPENMP_PROGRAMS_SOURCE_DIR) / source, name);
}

// The report of a measured run; `overshoot`, when given, receives the scheduling noise the program
// met (support/sleep_overshoot.hpp): a figure that a late wake-up lengthens may exceed its
// construction by that much.
json measure_report(const TempDir& tmp, const std::string& program, const std::vector<std::string>& arguments,
                    double* overshoot = nullptr) {
  std::vector<std::string> command{program};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const auto result = measure(tmp / "run", command);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  if (overshoot) *overshoot = sleep_overshoot(result);
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
  worst.file = file_name_of(where["file"]);
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
  const MachineLoad load;
  double late = 0;
  const json report = measure_report(tmp, program("triangular_loop"), {"3", "static"}, &late);
  const json* program_interval = find_interval(report, "program");
  ASSERT_NE(program_interval, nullptr);
  const double desync = number(*program_interval, "desync_time");
  // A late wake-up of thread 0 shortens its wait, one of thread 1 lengthens it.
  EXPECT_GE(desync, 3 * 0.064 - 0.030 - late) << "3 repetitions x 64 ms that thread 0 waits for thread 1; "
                                              << late << " s of late wake-ups; " << load.describe();
  EXPECT_LE(desync, 3 * 0.064 + 0.040 + late) << late << " s of late wake-ups; " << load.describe();
  // Late wake-ups add up to `late` of work to 2 x 300 ms: at most late / 0.6 s of efficiency.
  EXPECT_NEAR(number(*program_interval, "efficiency"), 136.0 / 200.0, 0.06 + late / 0.600)
      << "136 ms of work in 2 x 100 ms per repetition; " << late << " s of late wake-ups; "
      << load.describe();

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
  const MachineLoad load;
  double static_late = 0, dynamic_late = 0;
  const json static_report =
      measure_report(static_tmp, program("triangular_loop"), {"3", "static"}, &static_late);
  const json dynamic_report =
      measure_report(dynamic_tmp, program("triangular_loop"), {"3", "dynamic"}, &dynamic_late);
  const double static_efficiency = number(*find_interval(static_report, "program"), "efficiency");
  const double dynamic_efficiency = number(*find_interval(dynamic_report, "program"), "efficiency");
  // Late wake-ups can add up to their length to one thread's work: they cost the dynamic schedule
  // (2 x 3 x 72 ms) up to late / 0.43 s of efficiency and give the static one (2 x 3 x 100 ms) up to
  // late / 0.6 s.
  EXPECT_GT(dynamic_efficiency, static_efficiency + 0.15 - dynamic_late / 0.43 - static_late / 0.6)
      << "dynamic,1 leaves at most one iteration of imbalance (about 94 % against 68 %); late wake-ups "
      << static_late << " s (static), " << dynamic_late << " s (dynamic); " << load.describe();
}

// 100 ms on the master between two parallel regions of 2 threads: the other thread is idle for it.
TEST_P(OpenMPEfficiency, SerialSectionIsInsufficientParallelismOfThreadsMinusOneTimesItsLength) {
  TempDir tmp;
  const MachineLoad load;
  double late = 0;
  const json report = measure_report(tmp, program("serial_section"), {"1"}, &late);
  const json* program_interval = find_interval(report, "program");
  ASSERT_NE(program_interval, nullptr);
  EXPECT_EQ((*program_interval)["processors"], 2);
  const double insufficient = number(*program_interval, "insufficient_parallelism");
  EXPECT_GE(insufficient, 0.100 - 0.005) << "(2 - 1) threads x 100 ms of serial code";
  EXPECT_LE(insufficient, 0.100 + 0.040 + late)
      << "plus only the program's start-up before the first region and " << late << " s of late wake-ups; "
      << load.describe();
  EXPECT_LT(number(*program_interval, "idle_time"), 0.020) << "the worker's absence is not idleness";
}

// The SRC point of `kind` (a JSON kind key) at the marked line, or null.
const json* point_at(const json& report, const std::string& kind, std::int64_t line) {
  for (const json& p : report["src_points"])
    if (p["kind"] == kind && p["line"] == line) return &p;
  ADD_FAILURE() << "no SRC point " << kind << " at line " << line << " in " << report["src_points"].dump(2);
  return nullptr;
}

// Each thread enters a critical section 20 times and holds it 2 ms: one thread waits while the
// other holds it, about 80 ms in all; the same with an omp_lock_t.
TEST_P(OpenMPEfficiency, CriticalAndLockContentionIsWaitingAtTheirSites) {
  for (const auto& [part, kind, marker] :
       {std::tuple{"critical", "omp_critical", "critical"}, std::tuple{"lock", "omp_lock", "lock_set"}}) {
    TempDir tmp;
    const MachineLoad load;
    double late = 0;
    const json report = measure_report(tmp, program("sync_constructs"), {part}, &late);
    const json* point = point_at(report, kind, site_line("sync_constructs.c", marker));
    if (!point) continue;
    EXPECT_EQ((*point)["count"], 40) << part << ": 2 threads x 20 entries";
    EXPECT_GE(number(*point, "wait"), 0.050) << part << ": about 80 ms of waiting for the holder";
    EXPECT_GE(number(*point, "total") - number(*point, "wait"), reported_at_least(0.080))
        << part << ": holding it (40 x 2 ms) is not waiting";
    EXPECT_LE(number(*point, "total") - number(*point, "wait"), 0.080 + 0.060 + late)
        << part << "; " << late << " s of late wake-ups; " << load.describe();
    EXPECT_EQ((*point)["locations"].size(), 2u);
    EXPECT_NEAR(number(*find_interval(report, "program"), "waiting_time"), number(*point, "wait"), 0.005)
        << part << ": the program's waiting time is this site's";
  }
}

// 8 iterations of 5 ms in an ordered region, schedule(static,1): each thread waits for the other's
// turn, about 35 ms in all.
TEST_P(OpenMPEfficiency, OrderedWaitsForTheTurn) {
  TempDir tmp;
  const MachineLoad load;
  double late = 0;
  const json report = measure_report(tmp, program("sync_constructs"), {"ordered"}, &late);
  const json* point =
      point_at(report, "omp_ordered",
               site_line("sync_constructs.c", GetParam() == "gcc" ? "ordered_loop" : "ordered"));
  ASSERT_NE(point, nullptr);
  EXPECT_EQ((*point)["count"], 8);
  // Less what a thread takes from leaving one turn to asking for the next (microseconds; a few ms
  // when it loses its core then). Were waiting counted as work, there would be none.
  constexpr double kBetweenTurns = 0.003;
  if (GetParam() == "gcc") {
    // libgomp's ordered loops (gcc) also wait for the turn while fetching the next iteration, which
    // is not at the ordered construct, and libomp books that at the loop's end (the join barrier at
    // the loop's line). Only the sum is certain: the turns last 40 ms one after the other and thread 0
    // holds 20 ms of them, so it waits at least 20 ms at one or the other.
    const json* join = point_at(report, "omp_join_barrier", site_line("sync_constructs.c", "ordered_loop"));
    ASSERT_NE(join, nullptr);
    EXPECT_GT(number(*point, "wait"), 0) << "some of the waiting is at ordered";
    EXPECT_GE(number(*point, "wait") + number(*join, "sync"), 0.020 - kBetweenTurns)
        << "35 ms waiting for the turn, at least thread 0's 20 ms at ordered or at the loop's end; "
        << load.describe();
  } else {
    // Thread 0's 3 x 5 ms are certain to be at ordered.
    EXPECT_GE(number(*point, "wait"), 0.015 - kBetweenTurns)
        << "35 ms waiting for the turn, at least 15 ms of it at ordered; " << load.describe();
  }
  EXPECT_GE(number(*point, "total") - number(*point, "wait"), reported_at_least(0.040))
      << "8 x 5 ms inside is not waiting";
  EXPECT_LE(number(*point, "total") - number(*point, "wait"), 0.040 + 0.060 + late)
      << late << " s of late wake-ups; " << load.describe();
}

// The constructs whose waiting is desynchronization, as clang's libomp calls report them.
TEST(OpenMPConstructs, SingleSectionsAndNowaitChainsWaitAtTheRightBarrier) {
  struct Case {
    const char* part;
    const char* kind;
    const char* marker;
    double expected;  // seconds of sync time, constructed
  };
  for (const Case& c : {Case{"single", "omp_implicit_barrier", "single", 0.030},
                        Case{"sections", "omp_implicit_barrier", "sections", 0.040},
                        Case{"nowait", "omp_barrier", "barrier_imbalanced", 0.060}}) {
    TempDir tmp;
    const MachineLoad load;
    double late = 0;
    const json report = measure_report(tmp, PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, {c.part}, &late);
    const json* point = point_at(report, c.kind, site_line("sync_constructs.c", c.marker));
    if (!point) continue;
    EXPECT_GE(number(*point, "sync"), c.expected - 0.015) << c.part << ": the idle thread's wait is desync";
    EXPECT_LE(number(*point, "sync"), c.expected + 0.040 + late)
        << c.part << "; " << late << " s of late wake-ups; " << load.describe();
    EXPECT_EQ(number(*point, "wait"), 0) << c.part;
    EXPECT_EQ(report["src_points"][0]["line"], (*point)["line"]) << c.part << ": it is the worst point";
  }
  TempDir tmp;
  const json report = measure_report(tmp, PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, {"nowait"});
  const json* balanced = point_at(report, "omp_barrier", site_line("sync_constructs.c", "barrier_balanced"));
  const json* imbalanced =
      point_at(report, "omp_barrier", site_line("sync_constructs.c", "barrier_imbalanced"));
  ASSERT_NE(balanced, nullptr);
  ASSERT_NE(imbalanced, nullptr);
  EXPECT_LT(number(*balanced, "sync"), number(*imbalanced, "sync") / 2)
      << "opposite imbalances cancel before the first barrier; equal ones add up before the second";
}

TEST(OpenMPConstructs, NestedRegionsAndTasksLandInTheirIntervals) {
  {
    TempDir tmp;
    const json report = measure_report(tmp, PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, {"nested"});
    const json* outer = find_interval(report, "omp_parallel");
    ASSERT_NE(outer, nullptr);
    const json* inner = nullptr;
    for (const json& child : (*outer)["children"])
      if (child["kind"] == "omp_parallel") inner = &child;
    ASSERT_NE(inner, nullptr) << "the inner region nests in the outer one: " << report.dump(2);
    EXPECT_EQ((*inner)["processors"], 4) << "2 teams of 2 threads";
    EXPECT_EQ((*outer)["processors"], 4)
        << "its team of 2, and the inner teams' 2 other threads work in it too";
  }
  TempDir tmp;
  const MachineLoad load;
  double late = 0;
  const json report = measure_report(tmp, PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, {"tasks"}, &late);
  std::uint64_t task_entries = 0;
  const std::function<void(const json&)> count_tasks = [&](const json& interval) {
    if (interval["kind"] == "omp_task") task_entries += interval["count"].get<std::uint64_t>();
    for (const json& child : interval["children"]) count_tasks(child);
  };
  for (const json& interval : report["intervals"]) count_tasks(interval);
  EXPECT_EQ(task_entries, 8u) << "8 tasks of 10 ms";
  const json* taskwait = point_at(report, "omp_taskwait", site_line("sync_constructs.c", "taskwait"));
  ASSERT_NE(taskwait, nullptr);
  EXPECT_GE(number(*taskwait, "total"), 0.030) << "the master runs tasks while it waits for them";
  // At most the other thread's last task (10 ms) and its late wake-ups: running tasks (40 ms) is not.
  EXPECT_LT(number(*taskwait, "wait"), 0.012 + late)
      << "running tasks is work, not waiting; " << late << " s of late wake-ups; " << load.describe();
  // Late wake-ups can leave one thread waiting up to their length, of 2 x about 50 ms.
  EXPECT_GT(number(*find_interval(report, "program"), "efficiency"), 0.75 - late / 0.1)
      << "both threads run tasks: little is lost; " << late << " s of late wake-ups; " << load.describe();
}

// gcc's `single` (GOMP_single_start) tells the thread that runs it where the construct begins but
// not where it ends. One thread works 30 ms in the single, the other waits: the single must end
// where its body does, on its own, and the wait must be desync at the region's end (gcc lets the
// join barrier stand for the single's own when the single ends the region).
TEST(OpenMPConstructs, GccSingleEndsWithItsBodyWithoutAnOpenIntervalWarning) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_SYNC_CONSTRUCTS_GCC, "single"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.err.find("still open"), std::string::npos)
      << "the single is closed where its body ends, not by the region's end: " << result.err;
  const json report = report_json(tmp / "run");
  const json* single = find_interval(report, "omp_single");
  ASSERT_NE(single, nullptr) << report.dump(2);
  EXPECT_FALSE((*single)["open"].get<bool>());
  EXPECT_EQ((*single)["count"], 2) << "both threads enter it: one runs the body, the other passes";
  const json* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr);
  EXPECT_GE(number(*program, "desync_time"), 0.030 - 0.015) << "the other thread waits 30 ms for the single";
  EXPECT_LE(number(*program, "desync_time"), 0.030 + 0.020 + sleep_overshoot(result))
      << "the other thread waits 30 ms for the single, or as long as that thread woke up late";
}

// omp_control_tool start ... pause around a region where thread t works (1 + 2t) x 100 ms; nothing
// else of the run is measured: 400 ms of serial code and two more regions, the last after an
// omp_control_tool_end that a later start must not undo.
TEST(OpenMPToolControl, StartAndPauseDelimitThePhaseMeasured) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_TOOL_CONTROL_PHASE_CLANG});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.out, "control: start 0 pause 0 flush 0 end 0\n")
      << "parperf handles each command (omp_control_tool_success)";
  // A thread that wakes up late lengthens the phase and its work: by the program's overshoot at most.
  const double late = sleep_overshoot(result);
  const json report = report_json(tmp / "run");
  const json* program = find_interval(report, "program");
  ASSERT_NE(program, nullptr);
  EXPECT_NEAR(number(*program, "efficiency"), 4.0 / 6.0, 0.02 + 2 * late)
      << "the phase: 100 + 300 ms of work in 2 threads x 300 ms; lower counts the unmeasured serial "
         "code, higher the unmeasured regions";
  EXPECT_GE(number(*program, "execution_time"), 0.300 - 0.002) << "the phase";
  EXPECT_LE(number(*program, "execution_time"), 0.300 + 0.020 + late) << "the phase, and nothing outside it";
  int regions = 0;
  const std::function<void(const json&)> count_regions = [&](const json& interval) {
    if (interval["kind"] == "omp_parallel") {
      ++regions;
      EXPECT_EQ(interval["line"], site_line("tool_control_phase.c", "phase_region")) << interval.dump(2);
      EXPECT_EQ(interval["count"], 2) << "one entry per thread: the phase's region only";
    }
    for (const json& child : interval["children"]) count_regions(child);
  };
  for (const json& interval : report["intervals"]) count_regions(interval);
  EXPECT_EQ(regions, 1) << "the regions outside the phase are not measured";
}

// omp_control_tool pauses and resumes before, inside and after regions with loops inside them: the
// report must read the profile (it refused one whose region ended during a pause, as its loop was
// kept and the region was not), and no interval may take longer than the one it is in.
TEST(OpenMPToolControl, PausesAtAnyPointOfARegionLeaveAProfileWhoseFiguresAddUp) {
  TempDir tmp;
  const auto result = measure(tmp / "run", {PARPERF_PROGRAM_TOOL_CONTROL_SEQUENCES_CLANG});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json report = report_json(tmp / "run");
  ASSERT_FALSE(report.is_null()) << "parperf report refused the profile (above)";
  int checked = 0;
  const std::function<void(const json&, const json*)> within_parent = [&](const json& interval,
                                                                          const json* parent) {
    if (parent && (*parent)["kind"] != "program") {
      ++checked;
      EXPECT_LE(number(interval, "total_time"), number(*parent, "total_time") + 1e-6)
          << interval["kind"] << " '" << interval["name"] << "' took longer than the " << (*parent)["kind"]
          << " it is in";
    }
    for (const json& child : interval["children"]) within_parent(child, &interval);
  };
  for (const json& interval : report["intervals"]) within_parent(interval, nullptr);
  EXPECT_GT(checked, 0) << "the loops inside the regions were not recorded";
}

// gfortran's libgomp program, run on libomp: its critical section, loop imbalance (32 ms) and
// barrier imbalance (20 ms) all show up.
TEST(OpenMPFortran, GfortranProgramIsMeasuredThroughLibomp) {
  TempDir tmp;
  const MachineLoad load;
  double late = 0;
  const json report = measure_report(tmp, PARPERF_PROGRAM_OMP_FORTRAN_GFORTRAN, {}, &late);
  const json* critical = point_at(report, "omp_critical", site_line("omp_fortran.f90", "fortran_critical"));
  ASSERT_NE(critical, nullptr);
  EXPECT_EQ((*critical)["count"], 10) << "2 threads x 5 entries";
  EXPECT_GE(number(*critical, "wait"), 0.020) << "about 40 ms of waiting for the holder";
  EXPECT_GE(number(*critical, "total") - number(*critical, "wait"), reported_at_least(0.040))
      << "10 x 4 ms holding it";
  const double desync = number(*find_interval(report, "program"), "desync_time");
  EXPECT_GE(desync, 0.032 + 0.020 - 0.015) << "the loop's 32 ms and the barrier's 20 ms imbalance";
  EXPECT_LE(desync, 0.032 + 0.020 + 0.040 + late) << late << " s of late wake-ups; " << load.describe();
}

// The profile's records that grow with what the program did rather than with its structure: the
// non-empty buckets of each loop's iteration-time distribution (more iterations may fill buckets that
// were empty) and the command line the profile quotes.
struct GrowingParts {
  std::size_t buckets = 0;
  std::size_t command_line = 0;
  std::size_t nodes = 0;
};

GrowingParts growing_parts(const std::filesystem::path& file) {
  const format::Profile profile = format::read_profile_file(file);
  GrowingParts parts;
  parts.command_line = profile.process.command_line.size();
  for (const format::Thread& thread : profile.threads)
    for (const format::Node& node : thread.nodes) {
      ++parts.nodes;
      if (!node.iteration_histogram) continue;
      for (std::uint64_t count : node.iteration_histogram->buckets) parts.buckets += count != 0;
    }
  return parts;
}

// Statistics are aggregated while the program runs: 10x the repetitions, the same records. The
// profile's records have fixed widths (docs/format.md), so the only bytes 10x the work may add are
// one IterationBucketRecord per newly filled bucket and the longer argument in the command line;
// the size must grow by exactly those, whatever the machine's load did to the iteration times.
TEST(OpenMPProfile, SizeDoesNotGrowWithIterations) {
  std::uintmax_t sizes[2] = {};
  GrowingParts parts[2];
  int i = 0;
  for (const char* repetitions : {"1", "10"}) {
    TempDir tmp;
    const auto result = measure(tmp / "run", {PARPERF_PROGRAM_TRIANGULAR_LOOP_CLANG, repetitions, "dynamic"});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    const auto file = tmp / "run" / "profile.0.ppf";
    sizes[i] = std::filesystem::file_size(file);
    parts[i++] = growing_parts(file);
  }
  EXPECT_EQ(parts[1].nodes, parts[0].nodes) << "10x the repetitions must not add interval nodes";
  const auto bucket_bytes = format::min_encoded_size<format::IterationBucketRecord>();
  const auto expected =
      static_cast<std::intmax_t>(sizes[0]) +
      static_cast<std::intmax_t>(bucket_bytes) *
          (static_cast<std::intmax_t>(parts[1].buckets) - static_cast<std::intmax_t>(parts[0].buckets)) +
      (static_cast<std::intmax_t>(parts[1].command_line) - static_cast<std::intmax_t>(parts[0].command_line));
  EXPECT_EQ(static_cast<std::intmax_t>(sizes[1]), expected)
      << "profile of 1 repetition: " << sizes[0] << " bytes, " << parts[0].buckets
      << " iteration buckets; of 10 repetitions: " << sizes[1] << " bytes, " << parts[1].buckets
      << " buckets (each " << bucket_bytes << " bytes), command line " << parts[0].command_line << " -> "
      << parts[1].command_line << " characters: something else grew with the iterations";
}

// Pins the calling thread, and so the processes it starts, to one CPU for its lifetime.
class OneCpu {
 public:
  OneCpu() {
    CPU_ZERO(&saved_);
    pinned_ = sched_getaffinity(0, sizeof saved_, &saved_) == 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first_cpu(saved_), &one);
    pinned_ = pinned_ && sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~OneCpu() {
    if (pinned_) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  bool pinned() const { return pinned_; }

 private:
  static int first_cpu(const cpu_set_t& set) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) return cpu;
    return 0;
  }
  cpu_set_t saved_;
  bool pinned_ = false;
};

const json* finding_with_rule(const json& report, const std::string& rule) {
  for (const json& f : report["findings"])
    if (f["rule"] == rule) return &f;
  return nullptr;
}

// The case: threads that lose time at a barrier with balanced work because they were off the
// CPU, not because their work differed. Two threads of equal CPU work share one core; the scheduler
// interleaves them, so how much is lost at the barrier varies from run to run (about 1 % of the time,
// a time slice per loop). Whatever is lost, the diagnosis must not call it unbalanced work; and when
// the barrier loses enough to be a finding (1 %), that finding must be preemption, with its evidence:
// max/mean of the threads' work near 1, and little of the time on a CPU.
TEST(OpenMPDiagnosis, BalancedThreadsSharingOneCoreArePreemptedNotUnbalanced) {
  TempDir tmp;
  json report;
  {
    const OneCpu one_cpu;
    ASSERT_TRUE(one_cpu.pinned()) << "could not pin the test to one CPU";
    report = measure_report(tmp, PARPERF_PROGRAM_CPU_BOUND_LOOP_CLANG, {"10"});
  }
  const std::string findings = report["findings"].dump(2);
  EXPECT_EQ(finding_with_rule(report, "unbalanced_barrier"), nullptr)
      << "each thread burns 48 ms of CPU time per loop: nothing is unbalanced, yet: " << findings;
  ASSERT_FALSE(report["src_points"].empty());
  const json& barrier = report["src_points"][0];
  EXPECT_LE(number(barrier, "imbalance"), 1.10) << "max/mean of the threads' work, equal by construction";
  const double share = number(barrier, "lost_share");
  const json* preemption = finding_with_rule(report, "preemption");
  if (share < 0.01) {
    EXPECT_EQ(preemption, nullptr) << "the barrier lost only " << share * 100 << " % of the time";
    return;
  }
  ASSERT_NE(preemption, nullptr) << "2 threads on one core lost " << share * 100
                                 << " % of the time at the loop's barrier; the findings: " << findings;
  EXPECT_EQ((*preemption)["location"]["line"], site_line("cpu_bound_loop.c", "cpu_loop")) << findings;
  const json& evidence = (*preemption)["evidence"];
  EXPECT_LE(number(evidence, "max_over_mean"), 1.10) << findings;
  EXPECT_LT(number(evidence, "on_cpu_share"), 0.75) << "two threads on one core run about half the time each";
}

// Its counterpart: work that really differs (36 and 100 ms, sleeping: no CPU needed) is unbalanced.
TEST(OpenMPDiagnosis, UnequalWorkIsUnbalancedNotPreempted) {
  TempDir tmp;
  const json report = measure_report(tmp, PARPERF_PROGRAM_TRIANGULAR_LOOP_CLANG, {"3", "static"});
  const std::string findings = report["findings"].dump(2);
  EXPECT_EQ(finding_with_rule(report, "preemption"), nullptr) << findings;
  const json* unbalanced = finding_with_rule(report, "unbalanced_barrier");
  ASSERT_NE(unbalanced, nullptr) << findings;
  EXPECT_GT(number((*unbalanced)["evidence"], "max_over_mean"), 1.25) << "max/mean of 100 and 36 ms is 1.47";
  EXPECT_EQ((*unbalanced)["remedy"], "dynamic_schedule") << findings;
}

INSTANTIATE_TEST_SUITE_P(Compilers, OpenMPEfficiency, ::testing::Values("clang", "gcc"),
                         [](const auto& compiler) { return compiler.param; });

}  // namespace
}  // namespace parperf::test
