// Wait states from the event trace (`parperf run --np N --trace`, then `parperf report --json`'s
// `wait_states`) on the MPI programs whose waits are known by construction (their headers): how much
// time each pattern lost, at which call site, which ranks waited and which rank made them wait, and
// that the clock check finds no message received before it was sent.
//
// Bounds as in mpi_efficiency_test.cpp: the programs sleep or spin for their work; a rank that wakes
// up late on the 2 cores arrives late, so a wait gets 35 % or at least 15 ms a repetition.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/parperf_json.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

// `parperf run --np ranks --trace` of `program`, then its report's `wait_states`.
json traced_wait_states(const TempDir& tmp, int ranks, const std::vector<std::string>& program,
                        const std::vector<std::pair<std::string, std::string>>& env = {}) {
  ProcessOptions options;
  options.env = env;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const ProcessResult run = parperf_run_np_with(ranks, tmp / "run", {"--trace"}, program, options);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  for (int rank = 0; rank < ranks; ++rank)
    EXPECT_TRUE(std::filesystem::exists(tmp / "run" / ("trace." + std::to_string(rank) + ".ppt")))
        << "rank " << rank << " wrote no event trace\n"
        << describe(run);
  const json report = report_json(tmp / "run");
  if (!report.contains("wait_states")) {
    ADD_FAILURE() << "a traced run's report has no wait_states";
    return json::object();
  }
  return report["wait_states"];
}

const json& pattern(const json& wait_states, const std::string& name) {
  if (wait_states.contains("patterns"))
    for (const json& p : wait_states["patterns"])  // by reference into the report, not into a copy
      if (p.value("pattern", "") == name) return p;
  ADD_FAILURE() << "no wait-state pattern " << name << " in " << wait_states.dump().substr(0, 800);
  return null_json();
}

// The lost time of `pattern`'s row whose `key` is `value` (a site's location, a rank); 0 when none.
double lost_where(const json& p, const std::string& rows, const std::string& key, const json& value) {
  if (!p.contains(rows)) return 0;
  for (const json& row : p[rows])
    if (row.contains(key) && row[key] == value) return number(row, "lost");
  return 0;
}

std::string location_of(const std::string& source, const std::string& marker) {
  return source + ":" +
         std::to_string(marker_line(std::filesystem::path(MPI_PROGRAMS_SOURCE_DIR) / source, marker));
}

void expect_constructed(double measured, double expected, double floor, const std::string& what) {
  EXPECT_NEAR(measured, expected, std::max(0.35 * expected, floor)) << what;
}

void expect_clocks_agree(const json& wait_states) {
  const json& check = field(wait_states, "clock_check");
  EXPECT_GT(integer(check, "messages") + integer(wait_states, "collectives"), 0) << "nothing was paired";
  EXPECT_EQ(integer(check, "violations"), 0) << "after clock correction a message was received before it "
                                                "was sent: "
                                             << check.dump();
}

// Rank 0 computes 200 ms before each of 3 sends; rank 1 waits for each in MPI_Recv at late_recv.
TEST(MpiWaitStates, LateSenderIsTheReceiversWaitAtItsRecvCausedByRank0) {
  TempDir tmp;
  const json w = traced_wait_states(tmp, 2, {PARPERF_PROGRAM_MPI_LATE_SENDER, "3", "200"});
  EXPECT_EQ(integer(w, "messages"), 3) << "three messages, each sent once and received once";
  EXPECT_EQ(integer(w, "unmatched_sends"), 0);
  EXPECT_EQ(integer(w, "unmatched_receives"), 0);
  expect_clocks_agree(w);
  const json& late = pattern(w, "late_sender");
  const std::string recv_site = location_of("late_sender.c", "late_recv");
  expect_constructed(lost_where(late, "sites", "location", recv_site), 0.600, 0.045,
                     "rank 1 waits 3 x 200 ms at " + recv_site);
  expect_constructed(lost_where(late, "waiting", "rank", 1), 0.600, 0.045, "rank 1 is the one that waits");
  expect_constructed(lost_where(late, "causes", "rank", 0), 0.600, 0.045, "rank 0 sends late");
  EXPECT_LT(lost_where(late, "waiting", "rank", 0), 0.015) << "rank 0 never waits for a message";
}

// Rank 1's clock reads 300 ms late (PARPERF_TEST_CLOCK_SKEW, docs/mpi.md): uncorrected, every
// message would arrive 300 ms before it was sent and rank 1 would never seem to wait. Corrected,
// the clock check passes and the late sender is found as on a healthy run. (No drift is injected:
// the injection skews time stamps, not durations, so a drifting clock would make a receive's end
// off by drift x its duration, which no real clock does.)
TEST(MpiWaitStates, TheClockCheckPassesAndTheWaitsAreFoundUnderAnInjectedOffset) {
  TempDir tmp;
  const json w = traced_wait_states(tmp, 2, {PARPERF_PROGRAM_MPI_LATE_SENDER, "3", "200"},
                                    {{"PARPERF_TEST_CLOCK_SKEW", "1:300000000:0"}});
  expect_clocks_agree(w);
  expect_constructed(lost_where(pattern(w, "late_sender"), "waiting", "rank", 1), 0.600, 0.045,
                     "rank 1 waits 3 x 200 ms whatever its clock says");
}

// Rank 0 (the root) works 100 ms before each of 2 broadcasts, rank 2 100 ms before each of 2
// reductions to rank 0 (rooted_collectives.c): ranks 1 and 2 wait for the root in MPI_Bcast, the root
// waits for rank 2 in MPI_Reduce. The roots come from the MPI collector (an operation's partner).
TEST(MpiWaitStates, LateBroadcastAndEarlyReduceAreCausedByTheLateRank) {
  TempDir tmp;
  const json w = traced_wait_states(tmp, 3, {PARPERF_PROGRAM_MPI_ROOTED_COLLECTIVES, "2", "100"});
  expect_clocks_agree(w);
  EXPECT_EQ(integer(w, "incomplete_collectives"), 0);
  const json& bcast = pattern(w, "late_broadcast");
  expect_constructed(
      lost_where(bcast, "sites", "location", location_of("rooted_collectives.c", "late_bcast")), 0.400, 0.030,
      "ranks 1 and 2 wait 2 x 100 ms each for the root");
  expect_constructed(lost_where(bcast, "causes", "rank", 0), 0.400, 0.030, "the root is late");
  EXPECT_LT(lost_where(bcast, "waiting", "rank", 0), 0.015) << "the root waits for nobody in a broadcast";
  const json& reduce = pattern(w, "early_reduce");
  expect_constructed(
      lost_where(reduce, "sites", "location", location_of("rooted_collectives.c", "early_reduce")), 0.200,
      0.030, "the root waits 2 x 100 ms for rank 2");
  expect_constructed(lost_where(reduce, "waiting", "rank", 0), 0.200, 0.030,
                     "only the root waits in a reduce");
  expect_constructed(lost_where(reduce, "causes", "rank", 2), 0.200, 0.030, "rank 2 contributes last");
}

// Rank k works (k+1) x 50 ms before each of 3 barriers: it waits (N-1-k) x 50 ms there, for rank N-1.
TEST(MpiWaitStates, ImbalancedBarrierIsWaitAtBarrierCausedByTheLastRank) {
  constexpr int kRanks = 3;
  constexpr double kUnit = 0.050;
  TempDir tmp;
  const json w = traced_wait_states(tmp, kRanks, {PARPERF_PROGRAM_MPI_IMBALANCED_BARRIER, "3", "50"});
  EXPECT_EQ(integer(w, "collectives"), 4) << "the start barrier and 3 more";
  EXPECT_EQ(integer(w, "incomplete_collectives"), 0);
  const json& barrier = pattern(w, "wait_at_barrier");
  const std::string site = location_of("imbalanced_barrier.c", "barrier");
  expect_constructed(lost_where(barrier, "sites", "location", site), 3 * kUnit * kRanks * (kRanks - 1) / 2,
                     0.045, "3 x (100 + 50) ms at " + site);
  for (int k = 0; k < kRanks - 1; ++k)
    expect_constructed(
        lost_where(barrier, "waiting", "rank", k), 3 * kUnit * (kRanks - 1 - k), 0.045,
        "rank " + std::to_string(k) + " arrives " + std::to_string(kRanks - 1 - k) + " units early");
  EXPECT_LT(lost_where(barrier, "waiting", "rank", kRanks - 1), 0.030) << "the last rank waits for nobody";
  const double caused_by_last = lost_where(barrier, "causes", "rank", kRanks - 1);
  EXPECT_GE(caused_by_last, 0.65 * 3 * kUnit * kRanks * (kRanks - 1) / 2)
      << "rank 2 arrives last at every barrier";
}

// A Waitall that completes two receives: both messages are traced, each paired with its send. On 2
// ranks, one a core: a ring exchange's messages arrive microseconds after they leave, closer than
// the clock offsets of ranks that share a core can be measured, so only then must the clock check
// find nothing.
TEST(MpiWaitStates, EveryMessageAWaitallCompletedIsPairedWithItsSend) {
  TempDir tmp;
  const json w = traced_wait_states(tmp, 2, {PARPERF_PROGRAM_MPI_WAITALL_EXCHANGE, "5"});
  EXPECT_EQ(integer(w, "messages"), 2 * 2 * 5) << "two messages per rank and round";
  EXPECT_EQ(integer(w, "unmatched_sends"), 0) << "no message is lost in a Waitall of several receives";
  EXPECT_EQ(integer(w, "unmatched_receives"), 0);
  expect_clocks_agree(w);
}

// Parallel trace analysis: `parperf report --np 2` and `mpirun -np 2 parperf report` analyse the run
// by parts, each process its own ranks' traces, and must print exactly what the serial report prints.
TEST(MpiWaitStates, ParallelAnalysisPrintsTheSerialReport) {
  TempDir tmp;
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  options.kill_descendants = true;
  ASSERT_EQ(parperf_run_np_with(3, tmp / "run", {"--trace"},
                                {PARPERF_PROGRAM_MPI_IMBALANCED_BARRIER, "2", "20"}, options)
                .exit_code,
            0);
  const std::string dir = (tmp / "run").string();
  for (const bool as_json : {false, true}) {
    SCOPED_TRACE(as_json ? "JSON" : "text");
    std::vector<std::string> report = {parperf_command().string(), "report"};
    if (as_json) report.push_back("--json");
    std::vector<std::string> serial_command = report, np_command = report;
    serial_command.push_back(dir);
    np_command.insert(np_command.end(), {"--np", "2", dir});
    const ProcessResult serial = run_process(serial_command, options);
    ASSERT_EQ(serial.exit_code, 0) << describe(serial);
    ASSERT_NE(serial.out.find(as_json ? "\"wait_states\"" : "Wait states (from the event trace)"),
              std::string::npos);
    ProcessOptions launcher = options;
    launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
    const ProcessResult np = run_process(np_command, launcher);
    EXPECT_EQ(np.exit_code, 0) << describe(np);
    EXPECT_EQ(np.out, serial.out) << "parperf report --np 2";
    EXPECT_EQ(np.err.find("analyses the run alone"), std::string::npos)
        << "an MPI run is analysed by parts, not by the first process alone:\n"
        << np.err;
    report.push_back(dir);
    const ProcessResult under_mpirun = mpi_run(2, report, options);
    EXPECT_EQ(under_mpirun.exit_code, 0) << describe(under_mpirun);
    EXPECT_EQ(under_mpirun.out, serial.out) << "mpirun -np 2 parperf report";
  }
}

}  // namespace
}  // namespace parperf::test
