// OpenSHMEM programs measured the way users measure them: `parperf run --np N -- prog` (parperf
// starts oshrun with Open MPI's fix for its exit) and `oshrun -np N parperf run -- prog`, read back
// with `parperf report --json`. Each program's header states its ground truth.
//
// Bounds: byte and call counts are exact (the traffic matrix, the classes). Waits come from sleeps
// of 100 ms steps on a shared 2-core machine: a PE that wakes late arrives late, so waits get
// +-60 ms a round and a lower bound of half what was constructed.
//
// The JSON fields read: run {end_reasons [{rank, reason, signal}], one_sided_traffic {processes,
// cells [{origin, target, operation, calls, bytes}]}}, intervals[0] {communication_classes [{class,
// count, bytes}], mpi_calls [{name, rank, count, real_sync, bytes, partner_min, partner_max}]},
// src_points [{name, file, line, wait, synchronization}].
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/artifacts.hpp"
#include "support/mpi_run.hpp"
#include "support/otf2_listing.hpp"
#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

std::int64_t site_line(const std::string& source, const std::string& name) {
  return marker_line(std::filesystem::path(SHMEM_PROGRAMS_SOURCE_DIR) / source, name);
}

bool has_profile(const std::filesystem::path& run, int pe) {
  return std::filesystem::exists(run / ("profile." + std::to_string(pe) + ".ppf"));
}

ProcessOptions launch_options() {
  ProcessOptions options;
  options.timeout_seconds = kMpiTimeoutSeconds;
  return options;
}

// `parperf run --np <pes>`: must succeed with every PE's profile.
ProcessResult measure_np(const TempDir& tmp, int pes, const std::string& program, int expected_exit = 0) {
  auto result = parperf_run_np(pes, tmp / "run", {program}, launch_options());
  EXPECT_EQ(result.exit_code, expected_exit) << describe(result);
  return result;
}

const json* src_point(const json& report, const std::string& file, std::int64_t line) {
  for (const json& p : report["src_points"])
    if (file_name_of(p["file"]) == file && integer(p, "line") == line) return &p;
  return nullptr;
}

// A measured run of `program` on `pes` PEs, its report and its SRC point at `file`'s SITE:`site`
// marker (null, after a failure naming the place, when the report has none).
struct SiteRun {
  ProcessResult result;
  json report;
  json point;
};

SiteRun measure_site(const TempDir& tmp, int pes, const std::string& program, const std::string& file,
                     const std::string& site) {
  SiteRun run;
  run.result = measure_np(tmp, pes, program);
  run.report = report_json(tmp / "run");
  const std::int64_t line = site_line(file, site);
  if (const json* p = src_point(run.report, file, line))
    run.point = *p;
  else
    ADD_FAILURE() << "no SRC point at " << file << ":" << line;
  return run;
}

// (origin, target, operation) -> (calls, bytes)
using Matrix =
    std::map<std::tuple<std::int64_t, std::int64_t, std::string>, std::pair<std::uint64_t, std::uint64_t>>;

Matrix traffic_of(const json& report) {
  Matrix m;
  const json& traffic = field(field(report, "run"), "one_sided_traffic");
  for (const json& c : traffic["cells"])
    m[{integer(c, "origin"), integer(c, "target"), text_of(c, "operation")}] = {
        c["calls"].get<std::uint64_t>(), c["bytes"].get<std::uint64_t>()};
  return m;
}

std::string describe(const Matrix& m) {
  std::string text;
  for (const auto& [key, value] : m)
    text += "  PE " + std::to_string(std::get<0>(key)) + " -> PE " + std::to_string(std::get<1>(key)) + " " +
            std::get<2>(key) + ": " + std::to_string(value.first) + " calls, " +
            std::to_string(value.second) + " bytes\n";
  return text;
}

// put_get_ring.c's matrix, constructed.
Matrix ring_matrix(int n) {
  constexpr std::uint64_t kRounds = 10, kPutInts = 1000, kGetLongs = 300;
  Matrix m;
  for (int p = 0; p < n; ++p) {
    m[{p, (p + 1) % n, "put"}] = {kRounds, kRounds * kPutInts * sizeof(int)};
    m[{p, (p - 1 + n) % n, "get"}] = {kRounds, kRounds * kGetLongs * sizeof(long)};
    m[{p, 0, "atomic"}] = {1, sizeof(int)};
  }
  return m;
}

class RingTraffic : public ::testing::TestWithParam<int> {};

TEST_P(RingTraffic, MatrixIsExactToTheByte) {
  const int n = GetParam();
  TempDir tmp;
  const auto result = measure_np(tmp, n, PARPERF_PROGRAM_SHMEM_PUT_GET_RING);
  EXPECT_NE(result.out.find("ring ok"), std::string::npos) << describe(result);
  for (int pe = 0; pe < n; ++pe)
    EXPECT_TRUE(has_profile(tmp / "run", pe)) << "PE " << pe << " wrote no profile";
  const json report = report_json(tmp / "run");
  const Matrix measured = traffic_of(report);
  const Matrix expected = ring_matrix(n);
  EXPECT_EQ(measured, expected) << "the one-sided traffic matrix of " << n << " PEs is\n"
                                << describe(measured) << "but the ring moved\n"
                                << describe(expected);

  // The same traffic by communication class, summed over PEs.
  using Counts = std::pair<std::int64_t, std::int64_t>;  // calls, bytes
  std::map<std::string, Counts> classes;
  for (const json& c : report["intervals"][0]["communication_classes"])
    classes[text_of(c, "class")] = {integer(c, "count"), integer(c, "bytes")};
  EXPECT_EQ(classes["put"], Counts(10 * n, 10 * n * 4000))
      << "puts: " << classes["put"].first << " calls, " << classes["put"].second << " bytes";
  EXPECT_EQ(classes["get"], Counts(10 * n, 10 * n * 2400))
      << "gets: " << classes["get"].first << " calls, " << classes["get"].second << " bytes";
  EXPECT_EQ(classes["atomic"], Counts(n, 4 * n)) << "atomics: " << classes["atomic"].first << " calls";

  // Every put is an operation at its call site, with its partner.
  const std::int64_t put_line = site_line("put_get_ring.c", "ring_put");
  int put_sites = 0;
  for (const json& call : report["intervals"][0]["mpi_calls"]) {
    if (text_of(call, "name") != "shmem_int_put") continue;
    ++put_sites;
    EXPECT_EQ(integer(call, "line"), put_line) << "shmem_int_put is at put_get_ring.c:" << put_line;
    const std::int64_t right = (integer(call, "rank") + 1) % n;
    EXPECT_EQ(integer(call, "partner_min"), right);
    EXPECT_EQ(integer(call, "partner_max"), right);
  }
  EXPECT_EQ(put_sites, n) << "one shmem_int_put site per PE";
}

INSTANTIATE_TEST_SUITE_P(Pes, RingTraffic, ::testing::Values(2, 3, 4));

// With --trace, the timeline export draws every put from its caller to the PE it wrote and every get
// from the PE it read to its caller: 10 of each per PE in the ring of 3, each with its bytes.
TEST(ShmemTrace, EveryPutAndGetOfTheRingIsAFlowBetweenTheRightPes) {
  constexpr int n = 3;
  TempDir tmp;
  const auto result = parperf_run_np_with(n, tmp / "run", {"--trace"}, {PARPERF_PROGRAM_SHMEM_PUT_GET_RING},
                                          launch_options());
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::filesystem::path chrome = tmp / "timeline.json";
  const auto exported = run_process(
      {parperf_command().string(), "export", (tmp / "run").string(), "--chrome-json", chrome.string()});
  ASSERT_EQ(exported.exit_code, 0) << describe(exported);
  std::map<std::int64_t, std::pair<json, json>> flows;  // by id: start, end
  const json timeline = read_json_file(chrome);
  for (const json& e : timeline["traceEvents"]) {
    if (e.value("ph", "") == "s") flows[e["id"].get<std::int64_t>()].first = e;
    if (e.value("ph", "") == "f") flows[e["id"].get<std::int64_t>()].second = e;
  }
  std::map<std::pair<std::int64_t, std::int64_t>, int> puts, gets;  // (from PE, to PE) -> arrows
  for (const auto& [id, ends] : flows) {
    ASSERT_FALSE(ends.first.is_null() || ends.second.is_null()) << "flow " << id << " has both ends";
    const std::string name = ends.first["name"];
    const auto from = ends.first["pid"].get<std::int64_t>(), to = ends.second["pid"].get<std::int64_t>();
    EXPECT_LE(ends.first["ts"].get<double>(), ends.second["ts"].get<double>())
        << name << ": no arrow goes back";
    if (name.rfind("shmem_int_put → rank ", 0) == 0) {
      EXPECT_NE(name.find("(4000 bytes)"), std::string::npos) << name;
      ++puts[{from, to}];
    } else if (name.rfind("shmem_long_get ← rank ", 0) == 0) {
      EXPECT_NE(name.find("(2400 bytes)"), std::string::npos) << name;
      ++gets[{from, to}];
    }
  }
  for (int pe = 0; pe < n; ++pe) {
    EXPECT_EQ((puts[{pe, (pe + 1) % n}]), 10) << "PE " << pe << "'s puts into PE " << (pe + 1) % n;
    EXPECT_EQ((gets[{(pe - 1 + n) % n, pe}]), 10) << "PE " << pe << "'s gets from PE " << (pe - 1 + n) % n;
  }
  EXPECT_EQ(puts.size(), static_cast<std::size_t>(n)) << "puts go only to the right neighbour";
  EXPECT_EQ(gets.size(), static_cast<std::size_t>(n)) << "gets come only from the left neighbour";
}

// The OTF2 export writes OpenSHMEM's calls as Score-P does, in RMA records on the symmetric heap:
// the ring's puts and gets (each completed at its own call's end: they are blocking) with their
// target PE and bytes, the atomic into PE 0, every barrier_all an RMA collective; the contended
// lock's acquisitions and releases with the lock's identity, the same on every PE.
TEST(ShmemTrace, TheOtf2ExportHasTheTransfersBarriersAndLocksAsRmaRecords) {
  constexpr int n = 3, rounds = 10, lock_rounds = 2;
  TempDir tmp;
  const auto ring = parperf_run_np_with(n, tmp / "ring", {"--trace"}, {PARPERF_PROGRAM_SHMEM_PUT_GET_RING},
                                        launch_options());
  ASSERT_EQ(ring.exit_code, 0) << describe(ring);
  const Otf2Listing otf2 = export_otf2(tmp / "ring");
  ASSERT_EQ(otf2.problem, "") << otf2.problem;
  ASSERT_EQ(otf2.defined("RMA_WIN").size(), 1u) << "the symmetric heap of all PEs:\n" << otf2.definitions;
  for (int pe = 0; pe < n; ++pe) {
    const std::vector<std::string> puts = otf2.records("RMA_PUT", pe);
    const std::vector<std::string> gets = otf2.records("RMA_GET", pe);
    const std::vector<std::string> atomics = otf2.records("RMA_ATOMIC", pe);
    ASSERT_EQ(puts.size(), static_cast<std::size_t>(rounds)) << "PE " << pe << ":\n" << otf2.events;
    ASSERT_EQ(gets.size(), static_cast<std::size_t>(rounds)) << "PE " << pe << ":\n" << otf2.events;
    ASSERT_EQ(atomics.size(), 1u) << "PE " << pe << ":\n" << otf2.events;
    for (const std::string& put : puts) {
      EXPECT_EQ(number_after(put, "Remote: "), (pe + 1) % n) << put;
      EXPECT_EQ(number_after(put, "Bytes: "), 4000) << put;
    }
    for (const std::string& get : gets) {
      EXPECT_EQ(number_after(get, "Remote: "), (pe - 1 + n) % n) << get;
      EXPECT_EQ(number_after(get, "Bytes: "), 2400) << get;
    }
    EXPECT_EQ(number_after(atomics[0], "Remote: "), 0) << atomics[0];
    EXPECT_NE(atomics[0].find("FETCH_AND_ADD"), std::string::npos) << atomics[0];
    EXPECT_EQ(otf2.records("RMA_OP_COMPLETE_BLOCKING", pe).size(), static_cast<std::size_t>(2 * rounds + 1))
        << "every transfer completes: PE " << pe;
    // One barrier_all before the rounds, two in each, one after the atomic.
    EXPECT_EQ(otf2.records("RMA_COLLECTIVE_END", pe).size(), static_cast<std::size_t>(2 * rounds + 2))
        << "PE " << pe << ":\n"
        << otf2.events;
  }

  const auto locks = parperf_run_np_with(n, tmp / "locks", {"--trace"},
                                         {PARPERF_PROGRAM_SHMEM_LOCK_CONTENTION}, launch_options());
  ASSERT_EQ(locks.exit_code, 0) << describe(locks);
  const Otf2Listing locked = export_otf2(tmp / "locks");
  ASSERT_EQ(locked.problem, "") << locked.problem;
  std::set<long long> lock_ids;
  for (int pe = 0; pe < n; ++pe) {
    const std::vector<std::string> acquired = locked.records("RMA_ACQUIRE_LOCK", pe);
    const std::vector<std::string> released = locked.records("RMA_RELEASE_LOCK", pe);
    ASSERT_EQ(acquired.size(), static_cast<std::size_t>(lock_rounds)) << "PE " << pe << ":\n"
                                                                      << locked.events;
    ASSERT_EQ(released.size(), acquired.size()) << "PE " << pe << ":\n" << locked.events;
    for (const std::string& line : acquired) {
      EXPECT_NE(line.find("Type: EXCLUSIVE"), std::string::npos) << line;
      lock_ids.insert(number_after(line, "Lock: "));
    }
    for (const std::string& line : released) lock_ids.insert(number_after(line, "Lock: "));
  }
  EXPECT_EQ(lock_ids.size(), 1u) << "one lock, named alike on every PE";
  EXPECT_GT(*lock_ids.begin(), 0) << "the lock's identity is known";
}

TEST(ShmemUnderOshrun, EveryPeMeasuredByItsOwnParperf) {
  TempDir tmp;
  const std::vector<std::string> argv = {PARPERF_TEST_OSHRUN,
                                         "--oversubscribe",
                                         "-np",
                                         "2",
                                         "--mca",
                                         "memory",
                                         "^patcher",
                                         parperf_command().string(),
                                         "run",
                                         "-q",
                                         "-o",
                                         (tmp / "run").string(),
                                         "--",
                                         PARPERF_PROGRAM_SHMEM_PUT_GET_RING};
  ProcessOptions options = launch_options();
  options.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  options.kill_descendants = true;
  const auto result = run_process(argv, options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(has_profile(tmp / "run", 0) && has_profile(tmp / "run", 1)) << describe(result);
  EXPECT_EQ(traffic_of(report_json(tmp / "run")), ring_matrix(2));
}

TEST(ShmemBarrier, ImbalanceShowsAsWaitingAtTheBarrier) {
  constexpr int n = 3, rounds = 3;
  constexpr double step = 0.100;
  TempDir tmp;
  const SiteRun run =
      measure_site(tmp, n, PARPERF_PROGRAM_SHMEM_IMBALANCED_BARRIER, "imbalanced_barrier.c", "late_barrier");
  const json* p = &run.point;
  // PE p waits (n-1-p) steps a round: 3 steps a round over the PEs.
  const double constructed = rounds * step * n * (n - 1) / 2;
  EXPECT_NEAR(number(*p, "wait"), constructed, 0.06 * rounds * n)
      << "the PEs waited " << number(*p, "wait") << " s at the barrier in all; the program makes them wait "
      << constructed << " s";
  EXPECT_NEAR(number(*p, "synchronization"), constructed, 0.06 * rounds * n)
      << "the barrier's arrival spread";
}

// The POP factors of a traced OpenSHMEM run (pop_shmem.c; docs/efficiency-model.md): uneven work before
// shmem_barrier_all is load imbalance, a chain of shmem_int_p and shmem_int_wait_until is serialisation.
// The PEs' clocks are aligned by their start times (no clock exchange without MPI); each PE prints the
// work it really did, and the factors are checked against those figures within 0.03 (as in
// mpi_efficiency_model_test.cpp) and against the construction within 0.1.
struct ShmemPop {
  std::vector<double> work;
  json report;
};

ShmemPop traced_pop(const TempDir& tmp, int pes, const std::string& mode) {
  const auto result = parperf_run_np_with(
      pes, tmp / "run", {"--trace"}, {PARPERF_PROGRAM_SHMEM_POP_SHMEM, mode, "40", "2"}, launch_options());
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  ShmemPop run;
  for (std::size_t at = result.err.find(" work "); at != std::string::npos;
       at = result.err.find(" work ", at + 1))
    run.work.push_back(std::stod(result.err.substr(at + 6)));
  run.report = report_json(tmp / "run");
  return run;
}

TEST(ShmemPop, UnevenWorkBeforeTheBarrierIsLoadImbalance) {
  TempDir tmp;
  const ShmemPop run = traced_pop(tmp, 4, "imbalance");
  ASSERT_EQ(run.work.size(), 4u);
  const json& pop = field(run.report, "pop");
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double mean = (run.work[0] + run.work[1] + run.work[2] + run.work[3]) / 4;
  EXPECT_NEAR(number(pop, "load_balance"), mean / most, 0.03) << pop.dump();
  EXPECT_NEAR(number(pop, "load_balance"), 4.0 / 7, 0.1) << pop.dump();
  EXPECT_GT(number(pop, "serialisation_efficiency"), 0.9) << pop.dump();
  EXPECT_EQ(integer(field(run.report, "clock_repair"), "remaining"), 0);
}

TEST(ShmemPop, AChainOfWaitUntilAndPutIsSerialisation) {
  TempDir tmp;
  const ShmemPop run = traced_pop(tmp, 4, "chain");
  ASSERT_EQ(run.work.size(), 4u);
  const json& pop = field(run.report, "pop");
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double all = run.work[0] + run.work[1] + run.work[2] + run.work[3];
  EXPECT_NEAR(number(pop, "serialisation_efficiency"), most / all, 0.05)
      << "every wait_until is linked to the put that ended it: " << pop.dump();
  EXPECT_NEAR(number(pop, "serialisation_efficiency"), 0.25, 0.1) << pop.dump();
  EXPECT_GT(number(pop, "load_balance"), 0.9);
  EXPECT_EQ(field(field(run.report, "critical_path"), "locations").size(), 4u)
      << "the path runs through every PE";
}

// pop_shmem.c's `lock`: the PEs take turns holding a lock while they work, a global variable in the
// first round and one on the symmetric heap in the second. The collector names each lock call's lock
// the same way on every PE (its offset in the program, which each PE loads elsewhere; its address on
// the heap), so each set_lock is linked to the previous holder's clear_lock: the lock serialises the
// PEs, and no network makes that faster.
TEST(ShmemPop, ALockTakenInTurnIsSerialisationAndEachHolderHandsItOn) {
  constexpr int kPes = 4, kRounds = 2;
  TempDir tmp;
  const ShmemPop run = traced_pop(tmp, kPes, "lock");
  ASSERT_EQ(run.work.size(), static_cast<std::size_t>(kPes));
  const json& dependencies = field(run.report, "dependencies");
  EXPECT_EQ(integer(field(dependencies, "linked"), "shmem_lock_handovers"), (kPes - 1) * kRounds)
      << "in each round every holder but the first got the lock from the one before (the rounds' locks "
         "differ): "
      << dependencies.dump();
  EXPECT_EQ(integer(field(dependencies, "unlinked"), "shmem_locks"), 0) << dependencies.dump();
  const json& pop = field(run.report, "pop");
  const double most = *std::max_element(run.work.begin(), run.work.end());
  const double all = std::accumulate(run.work.begin(), run.work.end(), 0.0);
  EXPECT_NEAR(number(pop, "serialisation_efficiency"), most / all, 0.05) << pop.dump();
  EXPECT_NEAR(number(pop, "serialisation_efficiency"), 1.0 / kPes, 0.1) << pop.dump();
  EXPECT_GT(number(pop, "load_balance"), 0.9) << pop.dump();
  // Up to 12 ms for a woken PE to get a core back on 2 busy cores (mpi_efficiency_model_test.cpp's
  // kWakeUpS). What an ideal network may take from the run: a wake-up at each PE's set_lock (its
  // holder's release reaches it) and at each barrier; taken as a transfer, the lock's waiting would
  // leave about 1/kPes.
  constexpr double kWakeUpS = 0.012;
  const double floor = 1 - (kPes * kRounds + kRounds + 1) * kWakeUpS / number(pop, "run_time");
  ASSERT_GT(floor, 1.5 / kPes) << "the run is too short to tell a lock from a slow network: " << pop.dump();
  EXPECT_GT(number(pop, "transfer_efficiency"), floor) << "the lock's waiting is no transfer: " << pop.dump();
  // Lock Competition: in each round the k-th holder waits for the k - 1 holds before its own, a PE's
  // mean hold each (kPes (kPes - 1) / 2 holds a round). Each hold may differ from the mean by an
  // oversleep, and each waiter may come late to its set_lock by a wake-up from the barrier.
  const json* competition = nullptr;
  for (const json& p : field(field(run.report, "wait_states"), "patterns"))
    if (text_of(p, "pattern") == "lock_competition") competition = &p;
  ASSERT_NE(competition, nullptr) << run.report["wait_states"].dump();
  const double holds = kPes * (kPes - 1) / 2.0 * kRounds;
  const double waits = (kPes - 1) * kRounds;
  EXPECT_NEAR(number(*competition, "lost"), holds * all / (kPes * kRounds), (holds + waits) * kWakeUpS)
      << competition->dump();
  EXPECT_GE(integer(*competition, "instances"), (kPes - 1) * kRounds) << competition->dump();
}

// A shmem_quiet after large non-blocking puts (quiet_transfer.c): its time is their transfer. On 2
// PEs, each round puts 32 MiB with shmem_putmem_nbi, which returns at once under OSHMEM in shared
// memory; the copy happens in the quiet. The replay on a network of bandwidth B (latency 0) must end
// each PE's quiet no earlier than its put's begin + 32 MiB / B; with B = 32 MiB/s that is 1 s a round,
// while the run measured the put and the quiet in well under 1 s. Every other cost stays as measured
// (a SHMEM run has no messages to fit a network on: nothing of the quiet is taken as transfer on the
// run's own network, and the barriers carry no bytes), so the prediction grows by at least
// 1 s a round less what the put took, < 0.2 s even on a loaded machine. The same program putting 8
// bytes grows by 8 B / B = 0.24 us a round.
struct QuietRun {
  std::vector<double> least_quiet;  // per round, the shortest of the PEs' quiets, as they measured them
  json ideal, slow;                 // whatif --ideal-network, and on the slow network
};

QuietRun quiet_run(const TempDir& tmp, const std::string& name, std::uint64_t bytes, int rounds) {
  const auto result = parperf_run_np_with(
      2, tmp / name, {"--trace"},
      {PARPERF_PROGRAM_SHMEM_QUIET_TRANSFER, std::to_string(bytes), std::to_string(rounds)},
      launch_options());
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  QuietRun run;
  run.least_quiet.assign(static_cast<std::size_t>(rounds), 1e9);
  std::istringstream lines(result.err);
  for (std::string line; std::getline(lines, line);) {
    int pe = 0, round = 0;
    double quiet = 0;
    if (std::sscanf(line.c_str(), "quiet_transfer: PE %d round %d quiet %lf s", &pe, &round, &quiet) == 3 &&
        round >= 0 && round < rounds)
      run.least_quiet[static_cast<std::size_t>(round)] =
          std::min(run.least_quiet[static_cast<std::size_t>(round)], quiet);
  }
  run.ideal = whatif_json(tmp / name, {"--ideal-network"});
  run.slow = whatif_json(tmp / name, {"--network", "latency=0,bandwidth=" + std::to_string(32 << 20)});
  return run;
}

TEST(ShmemQuietTransfer, AQuietIsTheTransferOfThePutsItCompletes) {
  constexpr int rounds = 2;
  TempDir tmp;
  const QuietRun large = quiet_run(tmp, "large", 32 << 20, rounds);
  const double added = number(large.slow, "predicted_time") - number(large.slow, "replayed_time");
  EXPECT_GT(added, rounds * (1.0 - 0.2))
      << "on a 32 MiB/s network each round's quiet waits 1 s for its 32 MiB put: the replay added only "
      << added << " s in " << rounds << " rounds (is the quiet linked to its put?) " << large.slow.dump();
  // On the ideal network each round loses at least the quiet of the PE whose work was longest, so
  // at least the shorter of the two PEs' quiets; 0.8 of it leaves room for the replay's 3 %.
  const double least = std::accumulate(large.least_quiet.begin(), large.least_quiet.end(), 0.0);
  ASSERT_LT(least, 1e9) << "the program printed no quiet time for some round";
  EXPECT_GT(number(large.ideal, "gain"), 0.8 * least)
      << "the PEs spent " << least
      << " s or more in shmem_quiet, which the ideal network removes: " << large.ideal.dump();

  const QuietRun small = quiet_run(tmp, "small", 8, rounds);
  EXPECT_LT(number(small.slow, "predicted_time") - number(small.slow, "replayed_time"), 0.01)
      << "8-byte puts take 0.24 us each on that network: " << small.slow.dump();
}

// Collectives over active sets (active_set.c, 4 PEs): the even and the odd PEs each a shmem_barrier
// and a broadcast over their pair, PE 2 200 ms late to its pair's barrier, then a reduction over all
// four. The collector records each call's set, so all 5 instances are linked: the report lists
// nothing unlinked, and PE 0's wait at its pair's barrier leads the critical path to PE 2's 200 ms of
// work (a sleep: at least 200 ms; 10 ms off for the path's share of PE 2's barrier).
TEST(ShmemActiveSet, ItsCollectivesAreLinkedAndThePathRunsThroughTheLatePe) {
  TempDir tmp;
  const auto result =
      parperf_run_np_with(4, tmp / "run", {"--trace"}, {PARPERF_PROGRAM_SHMEM_ACTIVE_SET}, launch_options());
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.out.find("active_set ok"), std::string::npos) << describe(result);
  const auto text = run_process({parperf_command().string(), "report", (tmp / "run").string()});
  EXPECT_EQ(text.out.find("Not linked"), std::string::npos)
      << "every collective over an active set should be linked:\n"
      << text.out;
  const json report = report_json(tmp / "run");
  const json& locations = field(field(report, "critical_path"), "locations");
  double pe2 = 0;
  for (const json& l : locations)
    if (integer(l, "rank") == 2) pe2 = number(l, "time");
  EXPECT_GT(pe2, 0.19) << "PE 0 waited at its pair's barrier for PE 2's 200 ms of work: " << locations.dump();

  // Analysed by parts (`report --np 2`: each process the traces of two PEs, the instances' members on
  // both), the report must be the serial one, and made by parts, not by the first process alone.
  const auto serial = run_process({parperf_command().string(), "report", "--json", (tmp / "run").string()});
  ASSERT_EQ(serial.exit_code, 0) << describe(serial);
  ProcessOptions launcher = launch_options();
  launcher.kill_descendants = true;
  launcher.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  const auto by_parts = run_process(
      {parperf_command().string(), "report", "--json", "--np", "2", (tmp / "run").string()}, launcher);
  EXPECT_EQ(by_parts.exit_code, 0) << describe(by_parts);
  EXPECT_EQ(by_parts.out, serial.out) << "parperf report --np 2 of an OpenSHMEM run";
  EXPECT_EQ(by_parts.err.find("analyses the run alone"), std::string::npos)
      << "an OpenSHMEM run with collectives is analysed by parts, not by the first process alone:\n"
      << by_parts.err;
}

TEST(ShmemLock, ContentionIsWaitingAtSetLock) {
  constexpr int n = 3, rounds = 2;
  constexpr double hold = 0.100;
  TempDir tmp;
  const SiteRun run =
      measure_site(tmp, n, PARPERF_PROGRAM_SHMEM_LOCK_CONTENTION, "lock_contention.c", "contended_lock");
  EXPECT_NE(run.result.out.find("lock ok"), std::string::npos) << describe(run.result);
  const json& report = run.report;
  const json* p = &run.point;
  EXPECT_EQ(integer(*p, "count"), n * rounds) << "shmem_set_lock calls";
  // The k-th PE to get the lock waited k holds: n(n-1)/2 holds a round over the PEs. A hold is the
  // sleep plus the calls inside the critical section (OSHMEM's g, p, quiet and clear_lock take tens
  // of milliseconds on this machine): their measured mean time per call is added to it.
  double inside = 0;
  for (const json& call : report["intervals"][0]["mpi_calls"]) {
    const std::string name = text_of(call, "name");
    if (name == "shmem_int_g" || name == "shmem_int_p" || name == "shmem_quiet" || name == "shmem_clear_lock")
      inside += number(call, "time") / (n * rounds);
  }
  const double constructed = rounds * (hold + inside) * n * (n - 1) / 2;
  EXPECT_NEAR(number(*p, "wait"), constructed, 0.06 * rounds * n)
      << "the PEs waited " << number(*p, "wait") << " s for the lock in all; the program makes them wait "
      << constructed << " s (holds of " << hold << " s plus " << inside << " s of calls)";
}

TEST(ShmemWaitUntil, WaitingForAValueIsAnSrcPointWithItsWait) {
  constexpr int n = 2, rounds = 2;
  constexpr double late = 0.200;
  TempDir tmp;
  const SiteRun run = measure_site(tmp, n, PARPERF_PROGRAM_SHMEM_LATE_FLAG, "late_flag.c", "flag_wait");
  EXPECT_NE(run.result.out.find("flag ok"), std::string::npos) << describe(run.result);
  const json* p = &run.point;
  EXPECT_EQ(text_of(*p, "name"), "shmem_int_wait_until");
  EXPECT_EQ(integer(*p, "count"), rounds);
  // PE 0 waits for PE 1's late put every round.
  EXPECT_NEAR(number(*p, "wait"), rounds * late, 0.06 * rounds)
      << "PE 0 waited " << number(*p, "wait") << " s for the flag; PE 1 sets it " << late << " s late, "
      << rounds << " times";
}

TEST(ShmemGlobalExit, CallerAndOthersLeaveProfiles) {
  constexpr int n = 3;
  TempDir tmp;
  measure_np(tmp, n, PARPERF_PROGRAM_SHMEM_GLOBAL_EXIT, 3);
  ASSERT_TRUE(has_profile(tmp / "run", 1)) << "the PE that called shmem_global_exit wrote no profile";
  const json report = report_json(tmp / "run");
  std::map<std::int64_t, std::string> reasons;
  for (const json& e : field(report, "run")["end_reasons"])
    reasons[integer(e, "rank")] = text_of(e, "reason");
  EXPECT_EQ(reasons[1], "global_exit");
  for (int pe : {0, 2}) {
    if (has_profile(tmp / "run", pe))
      EXPECT_EQ(reasons[pe], "signal") << "PE " << pe << " was terminated by the launcher";
    else
      ADD_FAILURE() << "PE " << pe << " left no profile after PE 1's shmem_global_exit";
  }
}

// Samples taken inside shmem_init and shmem_finalize are start-up's and shut-down's, counted apart
// (as MPI_Init's, sampled_languages_test.cpp), and so are those taken while parperf writes the
// profile at exit. Sampled by the wall clock, which keeps sampling while shmem_init starts Open MPI's
// components and waits for the other PE (a few hundred ms: that many samples at 1 kHz), they would
// otherwise be `program`'s: at shmem_init, or with --internals in Open MPI's and PMIx's start-up below
// it, and in parperf's own functions below the program's exit.
bool start_up_or_parperf_frame(const std::string& frame) {
  for (const char* word : {"shmem_init", "shmem_finalize", "start_pes", "oshmem_", "ompi_mpi_init", "orte_",
                           "pmix", "hwloc", "parperf::runtime"})
    if (frame.find(word) != std::string::npos) return true;
  return false;
}

TEST(ShmemSampledStartUp, InitAndFinalizeSamplesAreCountedApartNotInProgram) {
  TempDir tmp;
  const auto result =
      parperf_run_np_with(2, tmp / "run", {"--sample=1000", "--sample-clock=wall"},
                          {PARPERF_PROGRAM_SHMEM_POP_SHMEM, "imbalance", "40", "2"}, launch_options());
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json samples = field(report_json(tmp / "run"), "samples");
  EXPECT_GT(samples.value("start_up", 0.0), 0)
      << "shmem_init lasts a few hundred ms of the wall clock: its samples must be counted apart; "
      << samples.dump().substr(0, 600);
  EXPECT_GT(samples.value("shut_down", 0.0), 0) << "shmem_finalize's and the profile's writing";
  for (const bool internals : {false, true}) {
    std::vector<std::string> argv = {parperf_command().string(), "report", "--folded"};
    if (internals) argv.push_back("--internals");
    argv.push_back((tmp / "run").string());
    const ProcessResult folded = run_process(argv);
    ASSERT_EQ(folded.exit_code, 0) << describe(folded);
    std::istringstream lines(folded.out);
    for (std::string line; std::getline(lines, line);) {
      // With --internals, Open MPI's and parperf's own frames are expected below the program's other
      // OpenSHMEM calls (its barriers) only.
      const std::size_t call = line.find(";shmem_");
      if (call != std::string::npos && line.compare(call, 12, ";shmem_init") != 0 &&
          line.compare(call, 16, ";shmem_finalize") != 0)
        line.resize(call);
      std::istringstream frames(line);
      bool through_main = false;  // the last frame is followed by the count
      for (std::string frame; std::getline(frames, frame, ';');) {
        EXPECT_FALSE(start_up_or_parperf_frame(frame))
            << "a start-up, shut-down or parperf sample in the program's call paths"
            << (internals ? " (--internals)" : "") << ": " << line;
        // _start: the program's own thread also after main returned, in an exit handler (liboshmem's).
        through_main = through_main || frame == "main" || frame.starts_with("main ") || frame == "_start";
      }
      // The program has one thread: a path not through main (or _start) is on a thread OSHMEM's
      // libraries started for themselves (PMIx's, UCX's progress threads), which are not the program's.
      EXPECT_TRUE(through_main) << "a sample in `program` on a thread the program did not start"
                                << (internals ? " (--internals)" : "") << ": " << line;
    }
  }
  EXPECT_GT(samples.value("model_threads", 0.0), 0)
      << "OSHMEM starts threads of its own in each PE (PMIx's): the report must say how many it left out; "
      << samples.dump().substr(0, 600);
}

TEST(ShmemNoFinalize, ProfilesWrittenWithoutShmemFinalize) {
  constexpr int n = 2;
  TempDir tmp;
  measure_np(tmp, n, PARPERF_PROGRAM_SHMEM_NO_FINALIZE);
  for (int pe = 0; pe < n; ++pe) EXPECT_TRUE(has_profile(tmp / "run", pe)) << "PE " << pe;
  const Matrix m = traffic_of(report_json(tmp / "run"));
  EXPECT_EQ(m, (Matrix{{{0, 1, "put"}, {1, 4}}, {{1, 0, "put"}, {1, 4}}})) << describe(m);
}

}  // namespace
}  // namespace parperf::test
