// Damaged profiles that still decode — their checksums resealed, so only the values are wrong —
// must never crash the analysis or the report: every mutant the reader accepts is analysed (MPI
// clocks, collective matching and attribution, OpenMP attribution) beside an intact copy of itself as
// another rank, and rendered as text and as JSON, which must parse back, for the whole run and for
// one rank's view. Fixed seed; runs under ASan/UBSan too.
#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "analysis/analysis.hpp"
#include "analysis/run_data.hpp"
#include "format/profile_reader.hpp"
#include "report/json_report.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"
#include "unit/profile_mutator.hpp"
#include "unit/report_text_options.hpp"

namespace parperf::report {
namespace {

constexpr std::uint64_t kSeed = 0x5eed'7e90'0002;
constexpr int kMutants = 1'000;

TEST(report_mutation, ProfilesWithDamagedValuesNeverBreakTheReport) {
  const test::Bytes original = test::encode_profile(test::rich_sample_profile());
  test::Mutator mutator(kSeed);
  int reported = 0;
  for (int i = 0; i < kMutants; ++i) {
    test::Bytes bytes = original;
    mutator.mutate(bytes);
    test::reseal_checksums(bytes);
    analysis::RunData run;
    try {
      run.profiles.push_back(format::decode_profile(bytes));
    } catch (const format::FormatError&) {
      continue;  // the reader's refusals are format_mutation_test's business
    }
    // The intact sample as rank 0 of the same run: the damaged clocks and collectives meet healthy ones.
    format::Profile intact = test::rich_sample_profile();
    intact.process.rank = 0;
    intact.process.world_size = run.profiles[0].process.world_size;
    if (run.profiles[0].process.rank != 0) run.profiles.insert(run.profiles.begin(), intact);
    run.profile_files = {"profile.0.ppf", "profile.5.ppf"};
    run.profile_files.resize(run.profiles.size());
    run.world_size = run.profiles[0].process.world_size;
    try {
      for (int variant = 0; variant < 3; ++variant) {
        ReportOptions options;
        analysis::AnalysisOptions analysis_options;
        if (variant == 1) options.per_processor = ProcessorSelection{};
        if (variant == 2) analysis_options.rank = run.profiles.back().process.rank;
        const Report report = build_report(run, analysis::analyze(run, analysis_options), options);
        EXPECT_FALSE(render_text(report).empty());
        EXPECT_FALSE(render_text(report, test::with_details()).empty());
        EXPECT_TRUE(nlohmann::json::accept(render_json_text(report))) << "mutant " << i;
      }
      ++reported;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "mutant " << i << " (seed " << kSeed
                    << ") decoded, then broke the report: " << e.what();
    }
  }
  EXPECT_GT(reported, kMutants / 4) << "too few mutants got past the reader to test the report";
  RecordProperty("reported_mutants", reported);
}

}  // namespace
}  // namespace parperf::report
