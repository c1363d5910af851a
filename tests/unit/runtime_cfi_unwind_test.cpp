// The stack walk by call-frame tables (src/runtime/cfi_unwind.*, stack_walk.*), compiled in: a chain
// of calls built at -O2 without frame pointers (this file's own flags, tests/unit/runtime.cmake) is
// walked from a machine context inside it, and damaged tables never make a step read outside them.
#include <gtest/gtest.h>
#include <signal.h>
#include <ucontext.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "runtime/cfi_unwind.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/stack_walk.hpp"

namespace parperf::runtime {
namespace {

// What each function of the chain returns to, as the compiler knows it (it needs no frame pointer).
std::uintptr_t g_return_of_inner = 0, g_return_of_middle = 0, g_return_of_outer = 0;
std::uintptr_t g_frames[128];
std::uint32_t g_count = 0;
bool g_whole = false;
volatile int g_sink = 0;

__attribute__((noinline)) void inner(UnwindCache* cache) {
  g_return_of_inner = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ucontext_t context;
  getcontext(&context);
  const int here = 0;
  const StackBounds stack = stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here));
  g_count = walk_stack(context, stack, g_frames, 128, &g_whole, cache);
  g_sink = g_sink + 1;  // work after the walk keeps the calls calls, not jumps
}
__attribute__((noinline)) void middle(UnwindCache* cache) {
  g_return_of_middle = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  inner(cache);
  g_sink = g_sink + 1;
}
__attribute__((noinline)) void outer(UnwindCache* cache) {
  g_return_of_outer = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  middle(cache);
  g_sink = g_sink + 1;
}

void expect_the_chain(const char* how) {
  ASSERT_GE(g_count, 4u) << how << ": the walk found too few frames";
  EXPECT_EQ(g_frames[1], g_return_of_inner) << how << ": inner's caller (middle) is the first return address";
  EXPECT_EQ(g_frames[2], g_return_of_middle) << how << ": then middle's caller (outer)";
  EXPECT_EQ(g_frames[3], g_return_of_outer) << how << ": then outer's caller (this test)";
  EXPECT_TRUE(g_whole) << how << ": the walk reaches the thread's first frame (_start), " << g_count
                       << " frames";
}

TEST(CfiUnwind, WalksCodeBuiltWithoutFramePointersToTheThreadsStart) {
  refresh_code_modules();
  outer(nullptr);
  expect_the_chain("without a cache");
  const std::uint32_t uncached = g_count;
  std::vector<std::uintptr_t> first(g_frames + 4, g_frames + g_count);
  auto* cache = create_private<UnwindCache>();
  ASSERT_NE(cache, nullptr);
  for (int pass = 0; pass < 3; ++pass) {  // the first fills the cache, the others walk by it
    outer(cache);
    expect_the_chain(pass == 0 ? "filling the cache" : "from the cache");
    EXPECT_EQ(g_count, uncached) << "the same path with and without the cache";
    EXPECT_TRUE(std::equal(first.begin(), first.end(), g_frames + 4)) << "the same callers above the chain";
  }
}

// A walk from inside a signal handler: through the signal's return frame (the C library's
// trampoline, whose tables' entry is an expression) to the code the signal interrupted, and on to
// the thread's start, as a sample taken in a handler (the program's, or parperf's own while it takes
// buffered samples out) must be.
std::uintptr_t g_return_of_raiser = 0;
void walk_in_handler(int) {
  ucontext_t context;
  getcontext(&context);
  const int here = 0;
  g_count = walk_stack(context, stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here)), g_frames, 128,
                       &g_whole, nullptr);
}
__attribute__((noinline)) void raiser() {
  g_return_of_raiser = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  raise(SIGUSR1);
  g_sink = g_sink + 1;
}

TEST(CfiUnwind, AWalkInsideASignalHandlerGoesOnFromTheInterruptedCode) {
  refresh_code_modules();
  struct sigaction action {};
  action.sa_handler = walk_in_handler;
  sigemptyset(&action.sa_mask);
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGUSR1, &action, &before), 0);
  raiser();
  sigaction(SIGUSR1, &before, nullptr);
  const std::uintptr_t* begin = g_frames;
  const std::uintptr_t* end = g_frames + g_count;
  EXPECT_TRUE(std::any_of(begin, end, [](std::uintptr_t f) { return is_signal_return(f); }))
      << "the signal's return frame is on the path";
  EXPECT_NE(std::find(begin, end, g_return_of_raiser), end)
      << "the walk must go on from the code the signal interrupted (raise, called by raiser) to raiser's "
         "caller";
  EXPECT_TRUE(g_whole) << "the walk reaches the thread's first frame through the signal frame, " << g_count
                       << " frames";
}

TEST(CfiUnwind, AModuleUnloadedVoidsTheRecipesKept) {
  refresh_code_modules();
  auto* cache = create_private<UnwindCache>();
  ASSERT_NE(cache, nullptr);
  outer(cache);
  const std::uintptr_t lookup = g_frames[1] - 1;
  ASSERT_NE(cached_recipe(cache, code_generation(), lookup), nullptr) << "the walk kept middle's recipe";
  const std::uint32_t before = code_generation();
  forget_unloaded_code_modules();  // nothing was unloaded: nothing changes
  EXPECT_EQ(code_generation(), before);
  EXPECT_EQ(cached_recipe(cache, before + 1, lookup), nullptr)
      << "a recipe of another generation is not used";
}

// The recipes of real code (this chain's, the test framework's, libc's), kept by a walk.
std::vector<UnwindRecipe> recipes_walked() {
  refresh_code_modules();
  auto* cache = create_private<UnwindCache>();
  if (!cache) return {};
  outer(cache);
  std::vector<UnwindRecipe> kept;
  for (const UnwindRecipe& r : cache->entries)
    if (r.pc != 0 && r.outcome == CfiStep::stepped) kept.push_back(r);
  return kept;
}

// The walk steps by step_by_recipe, whose quick form checks the stack's bounds once for all of a
// step's reads: it must decide exactly as apply_recipe, slot by slot, does. Each real recipe is
// applied to random stacks with the stack pointer anywhere from below the stack to its top, so that
// slots fall inside, astride and outside its bounds; the two must agree on the outcome, every
// register the caller gets and every word the walk's memo records.
TEST(CfiUnwind, TheQuickStepDecidesAsTheRecipeSlotBySlot) {
  const std::vector<UnwindRecipe> recipes = recipes_walked();
  ASSERT_GE(recipes.size(), 3u) << "the walk through the chain kept too few recipes";
  const auto quick =
      std::count_if(recipes.begin(), recipes.end(), [](const UnwindRecipe& r) { return r.quick; });
  EXPECT_GE(quick * 2, static_cast<long>(recipes.size()))
      << "only " << quick << " of " << recipes.size()
      << " recipes of -O2 code take the quick step: the walk would go the slow way at most frames";
  std::mt19937_64 random(20261129);
  std::vector<std::uintptr_t> stack(48);
  const auto low = reinterpret_cast<std::uintptr_t>(stack.data()) + 8 * sizeof(std::uintptr_t);
  const auto high = low + 32 * sizeof(std::uintptr_t);  // the words around [low, high) are readable too
  int compared = 0, stepped = 0;
  for (const UnwindRecipe& recipe : recipes) {
    for (int round = 0; round < 400; ++round) {
      for (auto& word : stack) word = random() % 8 == 0 ? 0 : random();
      UnwindRegisters r;
      for (int reg = 0; reg < UnwindRegisters::kCount; ++reg)
        if (random() % 4 != 0) r.set(reg, random());
      const std::uintptr_t sp = low - 64 + (random() % 48) * 8 + (random() % 16 == 0 ? 4 : 0);
      if (random() % 8 != 0) r.set(UnwindRegisters::kSp, sp);
      if (random() % 2 == 0) r.set(UnwindRegisters::kFp, sp + (random() % 24) * 8);
      UnwindRegisters slow = r, fast = r;
      StepReads slow_reads, fast_reads;
      const CfiStep expected = apply_recipe(recipe, slow, low, high, &slow_reads);
      const CfiStep got = step_by_recipe(recipe, fast, low, high, &fast_reads);
      ++compared;
      stepped += expected == CfiStep::stepped;
      ASSERT_EQ(static_cast<int>(got), static_cast<int>(expected))
          << "the quick step's outcome (0 stepped, 1 outermost, 2 no entry, 3 failed) differs, recipe of "
          << std::hex << recipe.pc << " at sp " << sp;
      ASSERT_EQ(fast.known, slow.known)
          << "the caller's registers differ, recipe of " << std::hex << recipe.pc;
      for (int reg = 0; reg < UnwindRegisters::kCount; ++reg)
        if (slow.has(reg)) {
          ASSERT_EQ(fast.value[reg], slow.value[reg]) << "register " << reg;
        }
      ASSERT_EQ(fast_reads.count, slow_reads.count) << "the memo's words differ";
      ASSERT_EQ(fast_reads.fp_only, slow_reads.fp_only);
      ASSERT_EQ(fast_reads.complete, slow_reads.complete);
      for (int k = 0; k < slow_reads.count; ++k) {
        ASSERT_EQ(fast_reads.at[k], slow_reads.at[k]);
        ASSERT_EQ(fast_reads.value[k], slow_reads.value[k]);
      }
    }
  }
  EXPECT_GT(stepped, compared / 10) << "too few of the random frames stepped to exercise the quick step";
}

// Random bytes behind a header of the usual form: every step ends in one of its outcomes, and reads
// stay in the segment (under AddressSanitizer a read past the buffer fails the test).
TEST(CfiUnwind, DamagedTablesEndTheStepNeverReadOutsideThem) {
  std::mt19937_64 random(20261129);
  std::vector<std::uint8_t> segment(4096);
  std::vector<std::uintptr_t> stack(64);
  const auto stack_low = reinterpret_cast<std::uintptr_t>(stack.data());
  const auto stack_high = stack_low + stack.size() * sizeof(std::uintptr_t);
  int stepped = 0;
  for (int round = 0; round < 20000; ++round) {
    for (auto& byte : segment) byte = static_cast<std::uint8_t>(random());
    for (auto& word : stack) word = random();
    const auto base = reinterpret_cast<std::uintptr_t>(segment.data());
    // .eh_frame_hdr: version 1, pc-relative eh_frame pointer, udata4 count, datarel sdata4 table.
    const std::uint8_t header[4] = {1, 0x1b, 0x03, 0x3b};
    std::memcpy(segment.data(), header, sizeof header);
    const auto count = static_cast<std::uint32_t>(random() % 600);  // often more than the segment holds
    std::memcpy(segment.data() + 8, &count, sizeof count);
    if (round % 4 < 2) {
      // Half the rounds: entries that cover every pc and lead into the segment, so that the random bytes
      // are parsed as an FDE, its CIE and their instructions.
      for (std::uint32_t e = 0; e < std::min<std::uint32_t>(count, 64); ++e) {
        const std::int32_t entry[2] = {-static_cast<std::int32_t>(random() % 64),
                                       static_cast<std::int32_t>(16 + random() % (segment.size() - 16))};
        std::memcpy(segment.data() + 12 + 8 * e, entry, sizeof entry);
      }
    }
    const UnwindTables tables{base, base, base + segment.size()};
    UnwindRegisters r;
    for (int reg = 0; reg < UnwindRegisters::kCount; ++reg) r.set(reg, random());
    r.set(UnwindRegisters::kSp, stack_low + (random() % stack.size()) * sizeof(std::uintptr_t));
    r.set(UnwindRegisters::kPc, base + random() % (1u << 20));
    const CfiStep step = cfi_step(tables, r, (round & 1) != 0, stack_low, stack_high);
    stepped += step == CfiStep::stepped;
    if (step == CfiStep::stepped) {
      EXPECT_GT(r.value[UnwindRegisters::kSp], stack_low) << "a step climbs the stack";
    }
  }
  RecordProperty("stepped", stepped);
}

}  // namespace
}  // namespace parperf::runtime
