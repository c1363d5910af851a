// The run's main findings in words (report/src_summary.hpp): each names the numbers its rule judged
// by, and its cause is the rule's, from findings computed by the analysis on hand-built evidence.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/findings.hpp"
#include "analysis/locality_findings.hpp"
#include "format/records.hpp"
#include "report/src_summary.hpp"
#include "unit/finding_samples.hpp"

namespace parperf::report {
namespace {

using analysis::Characteristics;
using analysis::SrcPoint;
using format::SiteKind;

std::uint32_t kind_of(SiteKind kind) { return static_cast<std::uint32_t>(kind); }

using test::loop_barrier;

Characteristics four_threads(double total) { return test::four_thread_program(total); }

std::string only_text(const std::vector<analysis::Finding>& findings) {
  EXPECT_EQ(findings.size(), 1u);
  return findings.empty() ? "" : main_finding_text(findings[0]);
}

TEST(report_findings_text, PreemptionAtABarrierNamesTheBalanceAndTheCpuShare) {
  EXPECT_EQ(
      only_text(analysis::main_findings(four_threads(4.0), {loop_barrier(10, 0.2, 1.07, 0.7)})),
      "5 % of thread time is lost at the implicit barrier of the omp loop at bt.f90:10: the threads' work "
      "there is balanced (max/mean 1.07), but they were on a CPU only 70 % of the time (1.20 s off it): "
      "preemption, threads were off the CPU (machine oversubscribed or other load) while the others "
      "waited; run no more threads than free cores, or on a quiet machine");
}

TEST(report_findings_text, UnbalancedWorkAtABarrierNamesItsRatioAndTheSchedule) {
  EXPECT_EQ(
      only_text(analysis::main_findings(four_threads(4.0), {loop_barrier(10, 0.2, 2.0, 0.7)})),
      "5 % of thread time is lost at the implicit barrier of the omp loop at bt.f90:10: the threads' work "
      "there is unbalanced (max/mean 2.00); a dynamic or guided schedule would recover up to 5 %");
}

TEST(report_findings_text, TheAmdahlBoundNamesTheSerialSectionsAndTheFraction) {
  Characteristics program = four_threads(8.0);
  program.insufficient_parallelism = 3.0;
  program.productive_time = 5.0;
  const std::vector<analysis::SerialSection> sections = {
      {{kind_of(SiteKind::user), "init", "src/f.c", 10, 0, 40}, 1.0}};
  EXPECT_EQ(only_text(analysis::main_findings(program, {}, {}, sections)),
            "the serial sections (the interval 'init' at f.c (10:40) (1.00 s)) limit speedup to 5.0x at "
            "any thread count (Amdahl: serial fraction 0.20, 1.00 s of 5.00 s of work); 38 % of thread time "
            "is lost to insufficient parallelism: code that runs on one thread while the others wait "
            "(outside parallel regions), or that every thread repeats (inside a parallel region, outside "
            "work-sharing constructs)");
}

TEST(report_findings_text, StartupSaysHowMuchOfTheShortRunItTakes) {
  Characteristics program = four_threads(6.0);
  program.startup = 4.0;
  SrcPoint init;
  init.identity = {kind_of(SiteKind::mpi_management), "MPI_Init", "app.c", 5, "", 0};
  init.total = 4.0;
  EXPECT_EQ(only_text(analysis::main_findings(program, {init})),
            "start-up (MPI_Init) takes 40 % of this run: 4.00 s of processor time, against 6.00 s of Total "
            "time for the program's own work; shown apart (startup_time) and left out of every figure, so a "
            "longer run would amortize it");
}

TEST(report_findings_text, PoorSpatialLocalityNamesTheFunctionAndItsScore) {
  format::LocalityResult result;
  result.report.program.histograms.word_accesses = 1000;
  format::LocalityScores k;
  k.spatial = 0.12;
  k.histograms.word_accesses = 450;
  k.histograms.strides = {0, 40, 0, 50, 360};  // 360 of 450 with no short stride
  result.report.functions[7] = k;
  format::LocalityScores tidy;
  tidy.spatial = 0.95;
  tidy.histograms.word_accesses = 500;
  result.report.functions[8] = tidy;
  result.functions[7] = {"k", "/src/k.c", 30, "a.out"};
  EXPECT_EQ(only_text(analysis::locality_findings(result)),
            "spatial locality 0.12 in function k (k.c:30), 45 % of the word accesses, 80 % of them with no "
            "short stride: a column-major walk over a row-major array, or another strided access? Walk "
            "arrays in memory order (interchange the loops)");
}

}  // namespace
}  // namespace parperf::report
