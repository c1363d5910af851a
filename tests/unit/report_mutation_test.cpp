// Damaged profiles that still decode — their checksums resealed, so only the values are wrong —
// must never crash the analysis or the report: every mutant the reader accepts is analysed and
// rendered as text and as JSON, which must parse back. Fixed seed; runs under ASan/UBSan too.
#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "analysis/interval_tree.hpp"
#include "analysis/run_data.hpp"
#include "format/profile_reader.hpp"
#include "report/json_report.hpp"
#include "report/report_builder.hpp"
#include "report/text_protocol.hpp"
#include "unit/profile_mutator.hpp"

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
    run.profile_files = {"profile.0.ppf"};
    run.world_size = run.profiles[0].process.world_size;
    try {
      const analysis::IntervalTree tree = analysis::build_interval_tree(run.profiles);
      for (bool per_processor : {false, true}) {
        ReportOptions options;
        if (per_processor) options.per_processor = ProcessorSelection{};
        const Report report = build_report(run, tree, options);
        EXPECT_FALSE(render_text(report).empty());
        EXPECT_NO_THROW(nlohmann::json::parse(render_json_text(report))) << "mutant " << i;
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
