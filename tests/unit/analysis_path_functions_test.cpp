// The functions on the critical path (path_functions.hpp) from hand-built path pieces and samples,
// whose answers follow from which samples fall in which piece.
#include <gtest/gtest.h>

#include <tuple>

#include "analysis/trace/path_functions.hpp"

namespace parperf::analysis {
namespace {

const PathFunction* row(const PathFunctions& f, const std::string& name) {
  for (const PathFunction& r : f.functions)
    if (r.name == name) return &r;
  return nullptr;
}

SampleStack stack_of(const std::vector<std::string>& functions) {
  SampleStack s;
  for (const std::string& f : functions) s.frames.push_back({f, "p.c", 1, "/bin/p", 0});
  return s;
}

// A thread's samples, every 10 ns of its time: (time, weight, stack).
ThreadTraceSamples thread_samples(std::int64_t rank, std::uint32_t thread,
                                  const std::vector<std::tuple<double, std::uint32_t, std::size_t>>& taken) {
  ThreadTraceSamples t;
  t.rank = rank;
  t.thread = thread;
  t.period_ns = 10;
  for (const auto& [time, weight, stack] : taken) t.samples.push_back({time, time, weight, stack});
  return t;
}

TEST(PathFunctions, SamplesInsideThePathsPiecesCountOnItAndTheOthersOnlyInTheRunsTotal) {
  // The path: rank 0 from 0 to 100, then rank 1 from 102 to 202. Samples every 10 ns.
  const std::vector<PathPiece> pieces = {{1, 0, 102, 202}, {0, 0, 0, 100}};
  TraceSamples samples;
  samples.stacks = {stack_of({"main", "stage"}),           // 0
                    stack_of({"main", "side"}),            // 1
                    stack_of({"main", "stage", "stage"}),  // 2: recursion counts once
                    stack_of({"main", "MPI_Recv"})};       // 3
  samples.threads = {
      // Rank 0: stage three times on the path, side at 150 after its piece (hidden).
      thread_samples(0, 0, {{10, 1, 0}, {50, 1, 0}, {90, 1, 0}, {150, 1, 1}}),
      // Rank 1 waits in MPI_Recv at 50 (off the path: the path is on rank 0 then), then runs stage at 120
      // and, with weight 2 (two periods in one signal), at 160; its samples out of time order.
      thread_samples(1, 0, {{160, 2, 2}, {50, 1, 3}, {120, 1, 2}}),
      // A thread the path never visits: all its time is off it.
      thread_samples(1, 1, {{110, 1, 1}})};
  samples.samples = 9;

  const PathFunctions f = path_functions(pieces, 202, samples);
  EXPECT_TRUE(f.sampled);
  EXPECT_EQ(f.samples, 9u);
  EXPECT_EQ(f.path_samples, 6u) << "rank 0's 3 stage samples and rank 1's 1 + 2";
  ASSERT_FALSE(f.functions.empty());
  EXPECT_EQ(f.functions[0].name, "main") << "main is in every stack: first by inclusive time";
  const PathFunction* stage = row(f, "stage");
  const PathFunction* side = row(f, "side");
  const PathFunction* recv = row(f, "MPI_Recv");
  ASSERT_TRUE(stage && side && recv);
  EXPECT_DOUBLE_EQ(stage->time_ns, 60) << "6 periods of 10 ns, the recursive sample counted once";
  EXPECT_EQ(stage->samples, 6u);
  EXPECT_DOUBLE_EQ(stage->self_ns, 60);
  EXPECT_DOUBLE_EQ(stage->share, 60.0 / 202);
  EXPECT_DOUBLE_EQ(stage->total_ns, 60);
  EXPECT_EQ(stage->module, "/bin/p");
  EXPECT_DOUBLE_EQ(side->time_ns, 0) << "side ran after rank 0's piece, and on a thread off the path";
  EXPECT_DOUBLE_EQ(side->total_ns, 20);
  EXPECT_DOUBLE_EQ(recv->time_ns, 0) << "rank 1 waited while the path was on rank 0";
  EXPECT_DOUBLE_EQ(recv->total_ns, 10);
  EXPECT_DOUBLE_EQ(row(f, "main")->self_ns, 0);
}

TEST(PathFunctions, WithoutSamplesNothingIsSampled) {
  const PathFunctions f = path_functions({{0, 0, 0, 100}}, 100, TraceSamples{});
  EXPECT_FALSE(f.sampled);
  EXPECT_TRUE(f.functions.empty());
}

}  // namespace
}  // namespace parperf::analysis
