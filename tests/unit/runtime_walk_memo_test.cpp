// The walk memo (src/runtime/walk_memo.*): a walk copies the outer frames it shares with the thread's
// last walk instead of stepping them, and the copy is exact: a frame whose caller changed is never
// taken from the memo. The chains of calls are built at -O2 without frame pointers
// (tests/unit/runtime.cmake), so the call-frame tables walk them, as the sample handler walks most programs.
#include <gtest/gtest.h>
#include <ucontext.h>

#include <cstdint>
#include <vector>

#include "runtime/code_modules.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/stack_walk.hpp"
#include "runtime/walk_memo.hpp"

namespace parperf::runtime {
namespace {

volatile int g_sink = 0;
volatile int g_twice = 2;  // a loop the compiler cannot unroll into two call sites

// One walk of the caller's stack, with the memo and, for comparison, without it.
struct Walked {
  std::vector<std::uintptr_t> with_memo, without_memo;
  bool whole_with = false, whole_without = false;
};
WalkMemo* g_memo = nullptr;
UnwindCache* g_cache = nullptr;
Walked g_walked;
// With them, each walk's path is also added to `g_table` (its outer frames' nodes taken from the
// memo) and to `g_looked_up` (every frame looked up), under `g_interval`.
CallPathTable* g_table = nullptr;
CallPathTable* g_looked_up = nullptr;
const Node* g_interval = nullptr;
std::uint32_t g_leaf = 0, g_looked_up_leaf = 0;

__attribute__((noinline)) void leaf() {
  ucontext_t context;
  getcontext(&context);
  const int here = 0;
  const StackBounds stack = stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here));
  std::uintptr_t frames[128];
  std::uint32_t count = walk_stack(context, stack, frames, 128, &g_walked.whole_with, g_cache, g_memo);
  g_walked.with_memo.assign(frames, frames + count);
  if (g_table) {
    g_leaf = add_walked_path(*g_table, g_memo, frames, count, g_interval, 1);
    g_looked_up_leaf = g_looked_up->add_sample(frames, count, g_interval);
  }
  count = walk_stack(context, stack, frames, 128, &g_walked.whole_without, g_cache, nullptr);
  g_walked.without_memo.assign(frames, frames + count);
  g_sink = g_sink + 1;  // work after the walk keeps the calls calls, not jumps
}
__attribute__((noinline)) void middle() {
  leaf();
  g_sink = g_sink + 1;
}
// Two callers of middle with the same frame: middle's frame lies at the same place under either,
// with the same pc, but returns to a different caller.
__attribute__((noinline)) void via_a() {
  middle();
  g_sink = g_sink + 1;
}
__attribute__((noinline)) void via_b() {
  middle();
  g_sink = g_sink + 2;
}
__attribute__((noinline)) void root(bool b) {
  if (b)
    via_b();
  else
    via_a();
  g_sink = g_sink + 1;
}

class CfiUnwindWalkMemo : public testing::Test {
 protected:
  void SetUp() override {
    refresh_code_modules();
    g_memo = create_private<WalkMemo>();
    g_cache = create_private<UnwindCache>();
    ASSERT_NE(g_memo, nullptr);
    ASSERT_NE(g_cache, nullptr);
  }
  static void expect_the_same_walk(const char* when) {
    EXPECT_EQ(g_walked.with_memo, g_walked.without_memo) << when << ": the memo changed the path";
    EXPECT_EQ(g_walked.whole_with, g_walked.whole_without) << when << ": the memo changed the walk's end";
  }
};

TEST_F(CfiUnwindWalkMemo, TheSameStackAgainIsCopiedFromItsFirstCaller) {
  // One call site, and no branch in the loop that the compiler could split it by: the same stack
  // both times.
  std::vector<Walked> walked;
  std::vector<std::uint64_t> reused;
  for (int walk = 0; walk < g_twice; ++walk) {
    root(false);
    walked.push_back(g_walked);
    reused.push_back(g_memo->frames_reused);
  }
  for (const Walked& w : walked) {
    EXPECT_EQ(w.with_memo, w.without_memo) << "the memo changed the path";
    EXPECT_TRUE(w.whole_with && w.whole_without) << "the walk reaches the thread's first frame";
  }
  EXPECT_EQ(reused[0], 0u) << "nothing to reuse in the first walk";
  // Every frame above middle's (frame 1) is copied: the walk stepped leaf's frame only.
  EXPECT_EQ(reused[1] - reused[0], walked[1].with_memo.size() - 2)
      << "the second walk of the same stack copies every frame above the first caller";
}

TEST_F(CfiUnwindWalkMemo, AFrameWhoseCallerChangedIsNeverCopied) {
  root(false);
  const WalkMemo::Walk& first = g_memo->walks[g_memo->last];
  ASSERT_GE(first.count, 5u);
  const WalkMemo::Frame middle_under_a = first.frame[1];
  const std::vector<std::uintptr_t> under_a = g_walked.with_memo;
  const std::uint64_t reused_before = g_memo->frames_reused;
  root(true);
  const WalkMemo::Frame& middle_under_b = g_memo->walks[g_memo->last].frame[1];
  // What makes the case: middle's frame looks the same to the walk under either caller.
  ASSERT_EQ(middle_under_b.pc, middle_under_a.pc) << "middle returns to the same place in leaf";
  ASSERT_EQ(middle_under_b.sp, middle_under_a.sp) << "middle's frame lies at the same place";
  if (middle_under_a.needs_fp) {  // else the frame pointer's value decides nothing
    ASSERT_EQ(middle_under_b.fp_known, middle_under_a.fp_known);
    ASSERT_EQ(middle_under_b.fp, middle_under_a.fp);
  }
  expect_the_same_walk("under via_b after a walk under via_a");
  ASSERT_GE(g_walked.with_memo.size(), 4u);
  EXPECT_NE(g_walked.with_memo[2], under_a[2]) << "middle's caller is via_b now, not via_a";
  // Only the frames above root's (whose callers did not change) may be copied.
  EXPECT_LE(g_memo->frames_reused - reused_before, g_walked.with_memo.size() - 5)
      << "a frame at or below root's was copied from the walk under via_a";
  EXPECT_GT(g_memo->frames_reused, reused_before) << "the frames above root's, unchanged, are copied";
}

TEST_F(CfiUnwindWalkMemo, CodeLoadedOrUnloadedSinceVoidsTheMemo) {
  for (int walk = 0; walk < g_twice; ++walk) root(false);
  const std::uint64_t reused = g_memo->frames_reused;
  ASSERT_GT(reused, 0u);
  forget_code_module_at(~std::uintptr_t{0});  // no such module: the generation stays
  root(false);
  EXPECT_GT(g_memo->frames_reused, reused) << "nothing changed: the memo is used";
  g_memo->walks[g_memo->last].generation -= 1;  // as if a module had been unloaded since
  const std::uint64_t before = g_memo->frames_reused;
  root(false);
  expect_the_same_walk("after the code changed");
  EXPECT_EQ(g_memo->frames_reused, before) << "a memo of another code generation is not used";
}

// The path a leaf node stands for, outermost first: (address, frame kind, interval) of each node.
std::vector<std::uintptr_t> path_of(const CallPathTable& table, std::uint32_t leaf) {
  std::vector<std::uintptr_t> path;
  for (std::uint32_t n = leaf; n != CallPathTable::kNoNode; n = table.nodes[n].parent) {
    path.insert(path.begin(), {table.nodes[n].address, table.nodes[n].frame,
                               reinterpret_cast<std::uintptr_t>(table.nodes[n].interval)});
  }
  return path;
}

TEST_F(CfiUnwindWalkMemo, CopiedFramesKeepTheTablesNodesOfTheirPath) {
  g_table = create_call_path_table(1024);
  g_looked_up = create_call_path_table(1024);
  ASSERT_NE(g_table, nullptr);
  ASSERT_NE(g_looked_up, nullptr);
  int intervals[2];
  // The same stack again, another caller below, another interval: each path as if every frame had
  // been looked up.
  const struct {
    bool via_b;
    int interval;
  } samples[] = {{false, 0}, {false, 0}, {true, 0}, {true, 0}, {true, 1}, {false, 1}, {false, 0}};
  for (const auto& sample : samples) {
    g_interval = reinterpret_cast<const Node*>(&intervals[sample.interval]);
    root(sample.via_b);
    expect_the_same_walk("a sample");
    ASSERT_NE(g_leaf, CallPathTable::kNoNode);
    EXPECT_EQ(path_of(*g_table, g_leaf), path_of(*g_looked_up, g_looked_up_leaf))
        << "the path's node differs from the one every frame looked up gives";
    EXPECT_EQ(g_table->nodes[g_leaf].samples.get(), g_looked_up->nodes[g_looked_up_leaf].samples.get());
  }
  EXPECT_EQ(g_table->node_count.load(), g_looked_up->node_count.load()) << "the same nodes, no more";
  EXPECT_GT(g_memo->frames_reused, 0u);
  g_table = g_looked_up = nullptr;
}

}  // namespace
}  // namespace parperf::runtime
