// The stack walk by call-frame tables (src/runtime/cfi_unwind.*, stack_walk.*), compiled in: a chain
// of calls built at -O2 without frame pointers (this file's own flags, tests/unit/runtime.cmake) is
// walked from a machine context inside it, and damaged tables never make a step read outside them.
#include <gtest/gtest.h>
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
