// The report of an MPI run: the run header (missing ranks, slowest rank, MPI library and clocks), the
// one-rank view (--rank), the communication table and call rows, the matched collectives, and the
// findings that name MPI calls, in text and JSON. The run is built by hand and analysed as
// `parperf report` analyses it.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "report/diagnosis.hpp"
#include "report/json_report.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"
#include "unit/analysis_mpi_test_profiles.hpp"
#include "unit/report_text_options.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using json = nlohmann::ordered_json;
using test::kind;
using test::kMs;
using test::MpiProfile;

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Three ranks of a run of four (rank 3 left no profile). Rank 1 waits 200 ms in MPI_Recv for rank
// 0's late MPI_Send; at the MPI_Barrier at x.c:40 ranks 0 and 1 arrive at 1.0 s, rank 2 at 1.15 s,
// all leave at 1.2 s. Rank 1 has an OpenMP worker too, and runs longest (1.2 s).
class MpiRun {
 public:
  MpiRun() {
    MpiProfile r0(0, 4), r1(1, 4), r2(2, 4);
    r0.thread(1000 * kMs);
    r1.thread(1200 * kMs);
    r1.thread(800 * kMs, format::ThreadKind::openmp_worker);
    r2.thread(1100 * kMs);
    const std::uint64_t arrive[] = {1000, 1000, 1150};
    MpiProfile* ranks[] = {&r0, &r1, &r2};
    for (std::size_t r = 0; r < 3; ++r) {
      MpiProfile& p = *ranks[r];
      const auto barrier = p.site(kind(SiteKind::mpi_barrier), "MPI_Barrier", "/src/x.c", 40);
      p.op(0, 0, barrier, 1, (1200 - arrive[r]) * kMs);
      p.instance(p.communicator(0x5eed, 0, 3, static_cast<std::int64_t>(r), 1), 0, arrive[r] * kMs,
                 1200 * kMs, barrier);
      if (r > 0) {  // clocks already agree: offsets 0
        p.clock(format::ClockPhase::init, 10 * kMs, 12 * kMs);
        r0.master_clock(format::ClockPhase::init, static_cast<std::int64_t>(r), 11 * kMs);
      }
    }
    const auto send = r0.site(kind(SiteKind::mpi_send), "MPI_Send", "/src/late_sender.c", 20);
    auto& s = r0.op(0, 0, send, 1, 10 * kMs);
    s.partner_min = s.partner_max = 1;
    s.partner_set = 2;
    s.bytes = 4096;
    const auto init = r0.site(kind(SiteKind::mpi_management), "MPI_Init", "/src/late_sender.c", 10);
    r0.op(0, 0, init, 1, 5 * kMs);
    const auto recv = r1.site(kind(SiteKind::mpi_recv), "MPI_Recv", "/src/late_sender.c", 25);
    auto& r = r1.op(0, 0, recv, 1, 250 * kMs, 200 * kMs);
    r.partner_min = r.partner_max = 0;
    r.partner_set = 1;
    r.bytes = 4096;
    r.last_begin_ns = 700 * kMs;
    r.last_end_ns = 950 * kMs;
    r0.profile().mpi.thread_level = 1;
    run.profiles = {r0.profile(), r1.profile(), r2.profile()};
    run.profile_files = {"profile.0.ppf", "profile.1.ppf", "profile.2.ppf"};
    run.world_size = 4;
    run.missing_ranks = {3};
    run.missing_rank_count = 1;
    run.warnings = {"profile.3.ppf: missing (the run has 4 processes)"};
    run.directory = "/runs/mpi";
  }

  Report build(const analysis::AnalysisOptions& options = {}) const {
    return build_report(run, analysis::analyze(run, options));
  }

  analysis::RunData run;
};

TEST(report_mpi, MissingRanksAreSaidProminentlyAndListed) {
  const Report report = MpiRun().build();
  EXPECT_EQ(report.run.missing_ranks, (std::vector<std::int64_t>{3}));
  const std::string text = render_text(report);
  EXPECT_TRUE(contains(text, "  MISSING: profiles missing for ranks 3 (of 4): the report covers the others"))
      << text;
  EXPECT_LT(text.find("MISSING"), text.find("warning:")) << "before the warnings, in the header";
  EXPECT_EQ(render_json(report)["run"]["missing_ranks"], json({3}));
  EXPECT_EQ(render_json(report)["run"]["world_size"], 4);
}

TEST(report_mpi, TheSlowestRankIsNamed) {
  const Report report = MpiRun().build();
  ASSERT_TRUE(report.run.slowest_rank.has_value());
  const json slowest = render_json(report)["run"]["slowest_rank"];
  EXPECT_EQ(keys_of(slowest), (std::set<std::string>{"rank", "execution_time", "spread"}));
  EXPECT_EQ(slowest["rank"], 1);
  EXPECT_DOUBLE_EQ(slowest["execution_time"].get<double>(), 1.2);
  EXPECT_NEAR(slowest["spread"].get<double>(), 0.205, 1e-9)
      << "rank 1's 1.2 s against rank 0's 1.0 s less its 5 ms in MPI_Init (start-up, outside the program's "
         "time)";
  EXPECT_TRUE(
      contains(render_text(report),
               "  slowest     rank 1 (its program ran 1.200000 s, 205 ms more than the fastest; the others "
               "wait for it at the end)"))
      << render_text(report);
}

// Two ranks whose programs end 0.4 ms apart: neither keeps the other waiting, so the header names no
// slowest rank ("the others wait for it" would blame a difference of finalization and clock noise);
// the JSON still gives the slowest with the spread.
TEST(report_mpi, RanksEndingWithinAMillisecondHaveNoSlowestRankInTheText) {
  MpiProfile r0(0, 2), r1(1, 2);
  r0.thread(1000 * kMs);
  r1.thread(1000 * kMs + 400'000);
  analysis::RunData run;
  run.profiles = {r0.profile(), r1.profile()};
  run.profile_files = {"profile.0.ppf", "profile.1.ppf"};
  run.world_size = 2;
  const Report report = build_report(run, analysis::analyze(run));
  const std::string text = render_text(report);
  EXPECT_FALSE(contains(text, "slowest")) << "ranks 0.4 ms apart, yet one is named the slowest:\n" << text;
  const json slowest = render_json(report)["run"]["slowest_rank"];
  EXPECT_EQ(slowest["rank"], 1);
  EXPECT_NEAR(slowest["spread"].get<double>(), 0.0004, 1e-9);
}

// Rank 0's MPI_Init (5 ms) is start-up: a figure of its own, outside the interval's time.
TEST(report_mpi, StartUpAndShutDownAreShownApart) {
  const Report report = MpiRun().build();
  const json program = render_json(report)["intervals"][0];
  EXPECT_DOUBLE_EQ(program["startup_time"].get<double>(), 0.005);
  EXPECT_DOUBLE_EQ(program["shutdown_time"].get<double>(), 0.0);
  const std::string text = render_text(report, test::with_details());
  EXPECT_TRUE(
      contains(text,
               "  Start-up/shut-down          0.005000 s / 0 s  (in MPI_Init, shmem_init / MPI_Finalize, "
               "shmem_finalize: not part of Total time)"))
      << text;
}

TEST(report_mpi, ASingleProcessHasNoSlowestRankAndNoMpi) {
  MpiRun mpi_run;
  analysis::RunData run = mpi_run.run;
  run.profiles.resize(1);
  run.profiles[0].has_mpi = false;
  run.profiles[0].mpi = {};
  run.profiles[0].process.world_size = 1;
  run.world_size = 1;
  run.missing_ranks.clear();
  run.missing_rank_count = 0;
  const json j = render_json(build_report(run, analysis::analyze(run)));
  EXPECT_TRUE(j["run"]["slowest_rank"].is_null());
  EXPECT_TRUE(j["run"]["mpi"].is_null());
  EXPECT_TRUE(j["run"]["missing_ranks"].is_array() && j["run"]["missing_ranks"].empty());
  EXPECT_EQ(j["mpi"], (json{{"collectives", json::array()}}));
}

TEST(report_mpi, TheRunSaysWhichMpiAndHowTheClocksWereCorrected) {
  const Report report = MpiRun().build();
  const json mpi = render_json(report)["run"]["mpi"];
  EXPECT_EQ(keys_of(mpi),
            (std::set<std::string>{"library", "latency", "bandwidth", "thread_level", "clock"}));
  EXPECT_EQ(mpi["library"], "Test MPI 1.0");
  EXPECT_DOUBLE_EQ(mpi["latency"].get<double>(), 1.5e-6);
  EXPECT_DOUBLE_EQ(mpi["bandwidth"].get<double>(), 5e9);
  EXPECT_EQ(mpi["thread_level"], "funneled");
  ASSERT_EQ(mpi["clock"].size(), 3u);
  EXPECT_EQ(keys_of(mpi["clock"][1]),
            (std::set<std::string>{"rank", "corrected", "offset_init", "offset_finalize", "drift",
                                   "offset_init_error", "offset_finalize_error", "drift_error"}));
  EXPECT_EQ(mpi["clock"][1]["rank"], 1);
  EXPECT_EQ(mpi["clock"][1]["corrected"], true);
  EXPECT_DOUBLE_EQ(mpi["clock"][1]["offset_init"].get<double>(), 0.0);
  EXPECT_TRUE(mpi["clock"][1]["offset_finalize"].is_null()) << "no finalize exchange recorded";
  EXPECT_EQ(mpi["clock"][0]["corrected"], false) << "rank 0 is the reference";
  const std::string text = render_text(report);
  EXPECT_TRUE(contains(text, "  mpi         Test MPI 1.0\n")) << text;
  EXPECT_TRUE(contains(text, "MPI_THREAD_FUNNELED, latency 1.5 µs, bandwidth 5.00 GB/s")) << text;
  EXPECT_TRUE(contains(text, "  clock       rank 1: offset to rank 0 +0.000000000 s at MPI_Init")) << text;
}

TEST(report_mpi, IntervalsHaveACommunicationTableAndCallRows) {
  const Report report = MpiRun().build();
  const json program = render_json(report)["intervals"][0];
  const json classes = program["communication_classes"];
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(keys_of(classes[0]),
            (std::set<std::string>{"class", "count", "time", "real_sync", "starts", "synchronization",
                                   "time_variation", "overlap", "bytes"}));
  EXPECT_EQ(classes[0]["class"], "point_to_point");
  EXPECT_EQ(classes[0]["count"], 2);
  EXPECT_EQ(classes[0]["bytes"], 8192);
  EXPECT_DOUBLE_EQ(classes[0]["real_sync"].get<double>(), 0.2);
  EXPECT_EQ(classes[1]["class"], "barrier");
  EXPECT_NEAR(classes[1]["synchronization"].get<double>(), 0.3, 1e-9) << "0.15 + 0.15 + 0";
  EXPECT_NEAR(classes[1]["real_sync"].get<double>(), 0.3, 1e-9);

  const json calls = program["mpi_calls"];
  ASSERT_EQ(calls.size(), 6u) << "3 barriers, send, init, recv";
  const json* recv = nullptr;
  for (const json& c : calls)
    if (c["name"] == "MPI_Recv") recv = &c;
  ASSERT_NE(recv, nullptr);
  EXPECT_EQ(keys_of(*recv), (std::set<std::string>{"name", "kind", "class", "file", "line", "rank", "count",
                                                   "time", "real_sync", "starts", "bytes", "overlap",
                                                   "synchronization", "time_variation", "partner_min",
                                                   "partner_max", "partners", "last_begin", "last_end"}));
  EXPECT_EQ((*recv)["kind"], "mpi_recv");
  EXPECT_EQ((*recv)["class"], "point_to_point");
  EXPECT_EQ((*recv)["line"], 25);
  EXPECT_EQ((*recv)["rank"], 1);
  EXPECT_EQ((*recv)["partner_min"], 0);
  EXPECT_EQ((*recv)["partners"], 1);
  EXPECT_DOUBLE_EQ((*recv)["last_end"].get<double>(), 0.95);
  for (const json& c : calls) {
    if (c["name"] == "MPI_Init") {
      EXPECT_EQ(c["class"], "management");
    }
  }

  const std::string text = render_text(report, test::with_details());
  EXPECT_TRUE(contains(text, "  --- communication (seconds, over processors) ---\n")) << text;
  EXPECT_TRUE(contains(text, "  point_to_point         2    0.260000    0.200000    0.060000")) << text;
}

TEST(report_mpi, TheMatchedCollectivesAreListedWithTheirArrivals) {
  const json mpi = render_json(MpiRun().build())["mpi"];
  ASSERT_EQ(mpi["collectives"].size(), 1u);
  const json& c = mpi["collectives"][0];
  EXPECT_EQ(keys_of(c),
            (std::set<std::string>{"communicator", "collectives", "sampled", "matched", "instances"}));
  EXPECT_EQ(c["communicator"], (json{{"size", 3}, {"ordinal", 0}, {"members_hash", 0x5eed}}));
  EXPECT_EQ(c["matched"], 1);
  const json& instance = c["instances"][0];
  EXPECT_EQ(instance["sequence"], 0);
  EXPECT_EQ(instance["name"], "MPI_Barrier");
  ASSERT_EQ(instance["arrivals"].size(), 3u);
  EXPECT_EQ(instance["arrivals"][2]["rank"], 2);
  EXPECT_DOUBLE_EQ(instance["arrivals"][2]["arrive"].get<double>(), 1.15);
  EXPECT_DOUBLE_EQ(instance["arrivals"][2]["leave"].get<double>(), 1.2);
}

TEST(report_mpi, FindingsNameTheWaitingRankItsPartnerAndTheRankLastAtTheCollective) {
  const Report report = MpiRun().build();
  std::string all;
  for (const std::string& finding : report.summary) all += finding + "\n";
  EXPECT_TRUE(
      contains(all, "rank 1 waits 0.200 s in MPI_Recv at late_sender.c:25 for a late sender (rank 0)"))
      << all;
  EXPECT_TRUE(
      contains(all,
               "rank 2 arrives last at MPI_Barrier at x.c:40 in 100 % of 1 matched instances (ranks up to "
               "0.150 s apart, synchronization 0.300 s: load imbalance before it)"))
      << all;
  const json points = render_json(report)["src_points"];
  ASSERT_GE(points.size(), 2u);
  EXPECT_EQ(points[0]["name"], "MPI_Barrier") << "most lost first: 0.3 s real sync + 0.15 s starts";
  EXPECT_NEAR(points[0]["lost"].get<double>(), 0.45, 1e-9);
  EXPECT_NEAR(points[0]["synchronization"].get<double>(), 0.3, 1e-9);
  EXPECT_NEAR(points[0]["arrival_spread"].get<double>(), 0.15, 1e-9);
  EXPECT_EQ(points[0]["description"], "MPI_Barrier at x.c:40");
  EXPECT_TRUE(contains(render_text(report),
                       "MPI_Recv at late_sender.c:25  [in program \"app\"; rank 1 (thread 0); real "
                       "sync 200 ms, starts 50 ms]"))
      << render_text(report);
}

TEST(report_mpi, OneRanksViewHasItsThreadsAsProcessors) {
  analysis::AnalysisOptions options;
  options.rank = 1;
  const Report report = MpiRun().build(options);
  EXPECT_EQ(report.run.unit, analysis::Unit::thread);
  ASSERT_EQ(report.intervals.size(), 1u);
  const ReportInterval& program = report.intervals[0];
  EXPECT_EQ(program.characteristics.processors, 2u) << "rank 1's two threads";
  ASSERT_EQ(program.per_processor.size(), 2u);
  EXPECT_EQ(program.per_processor[1].processor, 1) << "numbered by thread index within the rank";
  EXPECT_EQ(program.per_processor[1].rank, 1);
  EXPECT_DOUBLE_EQ(program.characteristics.execution_time, 1.2);
  for (const analysis::SrcPoint& p : report.src_points)
    for (const analysis::Location& l : p.locations) EXPECT_EQ(l.rank, 1);
  for (const analysis::MpiCallFigures& c : program.mpi_calls) EXPECT_EQ(c.rank, 1);
  EXPECT_EQ(report.run.slowest_rank->rank, 1) << "the slowest rank is still the run's";
  const json j = render_json(report);
  EXPECT_EQ(j["run"]["view_rank"], 1);
  EXPECT_EQ(j["run"]["unit"], "thread");
  EXPECT_TRUE(
      contains(render_text(report), "  view        rank 1 only: its threads are the processors (--rank)"));
  EXPECT_TRUE(render_json(MpiRun().build())["run"]["view_rank"].is_null());
}

TEST(report_mpi, AViewOfARankWithoutProfileIsRefusedWithTheRanksThatHaveOne) {
  analysis::AnalysisOptions options;
  options.rank = 3;
  try {
    MpiRun().build(options);
    FAIL() << "a view of the missing rank 3 was built";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--rank 3: the run has no profile of rank 3 (profiles: ranks 0-2)");
  }
}

TEST(report_mpi, TheDiagnosisNamesProcessorsArrivingAtCollectivesAtDifferentTimes) {
  analysis::Characteristics c;
  c.processors = 2;
  c.execution_time = 1;
  c.total_time = 2;
  c.productive_time = 1.4;
  c.lost_time = 0.6;
  c.communication = 0.6;
  c.communication_real_sync = 0.5;
  c.communication_starts = 0.1;
  c.synchronization = 0.5;
  const std::string d = diagnosis_text(analysis::diagnose(c, {}));
  EXPECT_EQ(d.rfind("communication is 30% of total: 500 ms waiting for partners", 0), 0u) << d;
  EXPECT_TRUE(contains(d,
                       "; at collective operations and barriers processors arrive at different times "
                       "(synchronization 500 ms: load imbalance before them)"))
      << d;
}

TEST(report_mpi, ARunWithoutMpiHasEmptyCommunicationLists) {
  MpiRun mpi_run;
  analysis::RunData run = mpi_run.run;
  for (auto& p : run.profiles) {
    p.has_mpi = false;
    p.mpi = {};
    for (auto& t : p.threads) t.nodes[0].operations.clear();
  }
  const analysis::Analysis analysed = analysis::analyze(run);
  const json program = render_json(build_report(run, analysed))["intervals"][0];
  EXPECT_TRUE(program["communication_classes"].is_array() && program["communication_classes"].empty());
  EXPECT_TRUE(program["mpi_calls"].is_array() && program["mpi_calls"].empty());
  EXPECT_FALSE(contains(render_text(build_report(run, analysed), test::with_details()), "--- communication"));
}

}  // namespace
}  // namespace parperf::report
