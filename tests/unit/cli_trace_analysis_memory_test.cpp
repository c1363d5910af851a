// `parperf report` on a machine without the memory to analyse a run's event traces prints the
// profile's report with a note of what the trace would add (trace_analysis_memory.hpp); `parperf
// whatif` says why it cannot replay. The analysis here is a stand-in that runs out of memory as a long
// trace's would, or succeeds.
#include <gtest/gtest.h>

#include <new>
#include <string>

#include "cli/trace_analysis_memory.hpp"

namespace parperf::cli {
namespace {

// Two ranks' traces as indexes, each of one block of `first` and `second` events.
analysis::TraceRun traces_of(std::uint32_t first, std::uint32_t second) {
  analysis::TraceRun run;
  for (const std::uint32_t events : {first, second}) {
    auto trace = std::make_shared<format::TraceFile>();
    trace->blocks.emplace_back().header.event_count = events;
    analysis::RankTrace& rank = run.ranks.emplace_back();
    rank.rank = static_cast<std::int64_t>(run.ranks.size() - 1);
    rank.trace = trace;
  }
  return run;
}

TEST(TraceAnalysisMemory, AnAnalysisThatRunsOutOfMemoryGivesNoneAndANoteOfWhatTheReportLeavesOut) {
  const analysis::TraceRun traces = traces_of(1'500'000, 700'000);
  std::string note;
  const auto analysed = analyse_traces_within_memory(
      traces, 2, "runs/big", note,
      [](const analysis::TraceRun&, unsigned) -> analysis::TraceAnalysis { throw std::bad_alloc(); });
  EXPECT_FALSE(analysed.has_value());
  EXPECT_NE(note.find("not enough memory to analyse the event traces of runs/big (2.2 million events"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("this report is the profile's, without the wait states, critical path, delay costs"),
            std::string::npos)
      << note;
}

TEST(TraceAnalysisMemory, AnAnalysisWithTheMemoryItNeedsIsReturnedWithoutANote) {
  const analysis::TraceRun traces = traces_of(10, 20);
  std::string note;
  unsigned asked = 0;
  const auto analysed = analyse_traces_within_memory(traces, 3, "runs/small", note,
                                                     [&](const analysis::TraceRun& t, unsigned threads) {
                                                       asked = threads;
                                                       analysis::TraceAnalysis a;
                                                       a.ranks = t.ranks.size();
                                                       return a;
                                                     });
  ASSERT_TRUE(analysed.has_value());
  EXPECT_EQ(analysed->ranks, 2u);
  EXPECT_EQ(asked, 3u) << "the threads it may use are passed on";
  EXPECT_TRUE(note.empty()) << note;
  EXPECT_NE(trace_memory_message("runs/small", 30).find("(30 events;"), std::string::npos);
}

}  // namespace
}  // namespace parperf::cli
