// One step of a stack walk by the call-frame information compilers emit for exception handling
// (.eh_frame, found through .eh_frame_hdr's sorted table): code built without frame pointers (gcc's
// default at -O2, glibc, libm, the parallel runtimes, the vDSO) is walked as a debugger walks
// it, where a frame-pointer walk stops at its first such frame.
//
// Signal-safe: the tables are read where the loader mapped them, found through the module registry
// (code_modules.hpp, filled off the signal path), so no dl_iterate_phdr and no loader lock; no
// allocation; every read of the interrupted stack is checked against its bounds and every read of a
// table against the segment that holds it, so damaged tables or a corrupt stack end the walk, never
// fault. x86-64 only: elsewhere every step reports no_table and the frame-pointer walk is used.
#pragma once

#include <cstddef>
#include <cstdint>

namespace parperf::runtime {

// Where a module's unwind tables are mapped: .eh_frame_hdr and the loaded segment that holds it (and,
// as linkers lay them out, .eh_frame beside it).
struct UnwindTables {
  std::uintptr_t eh_frame_hdr = 0;  // 0: the module has none
  std::uintptr_t segment_start = 0, segment_end = 0;
};

// The registers a step needs and recovers, by DWARF number (x86-64: 0-15 the general registers,
// rbp 6, rsp 7; 16 the return address, i.e. the pc). `known` has bit n set for register n.
struct UnwindRegisters {
  static constexpr int kCount = 17;
  static constexpr int kSp = 7, kFp = 6, kPc = 16;
  std::uintptr_t value[kCount];  // only those `known` are set: a step writes no more than it recovers
  std::uint32_t known = 0;
  bool has(int r) const { return (known >> r) & 1u; }
  void set(int r, std::uintptr_t v) { value[r] = v, known |= 1u << r; }
};

enum class CfiStep {
  stepped,    // the registers are now the caller's (its pc a return address)
  outermost,  // the frame's return address is undefined: the thread's first frame, the walk is whole
  no_entry,   // no table or no entry covers the pc: another way of walking must be tried
  failed,     // an entry covers it but cannot be followed (an expression, a read outside the stack)
};

// A frame's row of the tables as a step applies it: how the CFA and each register of the caller are
// found. Worked out once for a code address, then kept in the thread's UnwindCache: interpreting the
// tables costs about half a microsecond a frame, applying a recipe a few nanoseconds.
struct UnwindRecipe {
  // The registers a caller's frame can have back (the callee-saved ones: rbx, rbp, r12-r15) and its
  // return address; the others are the callee's to change (the psABI), so no caller has them.
  static constexpr int kKept = 7;
  static constexpr std::uint8_t kKeptRegister[kKept] = {3, 6, 12, 13, 14, 15, 16};
  std::uintptr_t pc = 0;                // the address looked up (a return address minus one, or the pc)
  std::uint32_t generation = 0;         // code_generation() when made: a module unloaded since voids it
  CfiStep outcome = CfiStep::no_entry;  // stepped: the rules below apply
  std::uint8_t cfa_register = 0;
  std::int32_t cfa_offset = 0;
  std::uint8_t how[kKept] = {};  // cfi_unwind.cpp's How, of kKeptRegister[i]
  std::int16_t offset[kKept] = {};
  // The same rules in the form nearly every frame has, applied in place: registers the caller has as
  // they are (a mask by DWARF number) and those saved at CFA + offset. `plain` false: a rule of
  // another kind is among them, and the rules above are applied one by one.
  bool plain = false;
  std::uint32_t unchanged = 0;
  std::uint8_t saved_count = 0;
  std::uint8_t saved_register[kKept] = {};
  std::int16_t saved_offset[kKept] = {};
  // For the walk's memo (walk_memo.hpp), worked out with the rest: recipe_follows_sp_and_fp and
  // recipe_keeps_fp of this recipe.
  bool follows_sp_and_fp = true;
  bool keeps_fp = false;
  // A plain recipe whose saved slots all lie at multiples of 8 from the CFA, between CFA + saved_lowest
  // and CFA + saved_highest, the return address among them: one range check and one alignment check
  // of the CFA then cover every read of its step (step_by_recipe). Precomputed here so that the
  // handler's step is a few loads and compares, not a loop of checks.
  bool quick = false;
  std::int16_t saved_lowest = 0, saved_highest = 0;
  std::uint32_t saved_mask = 0;  // the saved registers, by DWARF number
  // Where among the saved ones the return address and the frame pointer are (-1: the frame pointer is
  // not saved), for the words the walk's memo keeps; the frame pointer comes first, as kKeptRegister
  // has it.
  std::int8_t pc_slot = -1, fp_slot = -1;
};

// One thread's recipes by code address (direct-mapped), in its private memory: only its own handler
// reads and writes them.
struct UnwindCache {
  static constexpr std::size_t kEntries = 512;
  UnwindRecipe entries[kEntries];
};

// The recipe for the frame whose code is at `pc` (the interrupted instruction, or a return address
// minus one: inside the call), from its module's tables. Its generation is left 0.
UnwindRecipe make_recipe(const UnwindTables& tables, std::uintptr_t pc) noexcept;

// Two ways a set: a walk's few dozen frames then rarely evict one another, where one way would leave
// a pair of colliding frames reading their tables again at every sample.
inline std::size_t recipe_set_of(std::uintptr_t pc) noexcept {
  return static_cast<std::size_t>((pc * 0x9E3779B97F4A7C15ull) >> 56) % (UnwindCache::kEntries / 2) * 2;
}

// The recipe `cache` holds for `pc`, made while `generation` was current, or null. Such an address is
// code the walk has been through. Inline: the walk asks at every frame.
inline const UnwindRecipe* cached_recipe(const UnwindCache* cache, std::uint32_t generation,
                                         std::uintptr_t pc) noexcept {
  if (!cache || pc == 0) return nullptr;
  const UnwindRecipe* set = &cache->entries[recipe_set_of(pc)];
  for (int way = 0; way < 2; ++way)
    if (set[way].pc == pc && set[way].generation == generation) return &set[way];
  return nullptr;
}
void keep_recipe(UnwindCache& cache, const UnwindRecipe& recipe) noexcept;

// The words of the stack a step read that decide its caller's pc and frame pointer, for the walk's
// memo (walk_memo.hpp): a later walk may reuse the step only while they hold the same values.
struct StepReads {
  static constexpr int kMax = 4;  // a recipe's return address and frame pointer, a frame-pointer step's two
  std::uintptr_t at[kMax];
  std::uintptr_t value[kMax];
  std::uint8_t count = 0;
  std::uint8_t fp_only = 0;  // bit i: word i is the caller's frame pointer and decides nothing else
  bool complete = true;      // false: a read fell outside the stack (its bounds, not the words, decided)
  void clear() { count = fp_only = 0, complete = true; }
  void add(std::uintptr_t address, std::uintptr_t word, bool caller_fp_only = false) {
    if (count < kMax) {
      if (caller_fp_only) fp_only |= static_cast<std::uint8_t>(1u << count);
      at[count] = address, value[count++] = word;
    } else {
      complete = false;
    }
  }
};

// Steps `r` to the caller by `recipe` (its outcome when that is not `stepped`). `reads`, when given,
// gets the words read for the caller's pc and frame pointer. The stack's words are read at their
// address + `offset`: 0 for the live stack, else where a copy of it lies (stack_walk.hpp).
CfiStep apply_recipe(const UnwindRecipe& recipe, UnwindRegisters& r, std::uintptr_t stack_low,
                     std::uintptr_t stack_high, StepReads* reads = nullptr,
                     std::intptr_t offset = 0) noexcept;

// apply_recipe, as the walk calls it at every frame: a quick recipe's step, when all its slots lie
// inside the stack, inline (what apply_recipe would do, in fewer branches); any other goes through
// apply_recipe, which then decides exactly as before.
__attribute__((no_sanitize("address"))) inline CfiStep step_by_recipe(
    const UnwindRecipe& recipe, UnwindRegisters& r, std::uintptr_t stack_low, std::uintptr_t stack_high,
    StepReads* reads, std::intptr_t offset = 0) noexcept {
  if (!recipe.quick || !r.has(recipe.cfa_register) || !r.has(UnwindRegisters::kSp))
    return apply_recipe(recipe, r, stack_low, stack_high, reads, offset);
  const std::uintptr_t cfa =
      r.value[recipe.cfa_register] + static_cast<std::uintptr_t>(std::intptr_t{recipe.cfa_offset});
  // The CFA inside the stack (so adding a 16-bit offset cannot wrap), above the frame, aligned, and
  // every slot inside the stack: else apply_recipe checks slot by slot.
  const std::uintptr_t lowest = cfa + static_cast<std::uintptr_t>(std::intptr_t{recipe.saved_lowest});
  const std::uintptr_t highest = cfa + static_cast<std::uintptr_t>(std::intptr_t{recipe.saved_highest});
  if (cfa <= r.value[UnwindRegisters::kSp] || cfa >= stack_high || (cfa & 7) != 0 || lowest < stack_low ||
      highest > stack_high - sizeof(std::uintptr_t))
    return apply_recipe(recipe, r, stack_low, stack_high, reads, offset);
  const auto slot = [&](int i) {
    return cfa + static_cast<std::uintptr_t>(std::intptr_t{recipe.saved_offset[i]});
  };
  std::uintptr_t saved[UnwindRecipe::kKept];
  for (int i = 0; i < recipe.saved_count; ++i)
    saved[i] = *reinterpret_cast<const std::uintptr_t*>(slot(i) + static_cast<std::uintptr_t>(offset));
  if (reads) {
    if (recipe.fp_slot >= 0) reads->add(slot(recipe.fp_slot), saved[recipe.fp_slot], true);
    reads->add(slot(recipe.pc_slot), saved[recipe.pc_slot]);
  }
  // One store of the mask, not one read-modify-write a register: each would wait for the one before.
  r.known = (r.known & recipe.unchanged) | recipe.saved_mask;
  for (int i = 0; i < recipe.saved_count; ++i) r.value[recipe.saved_register[i]] = saved[i];
  if (r.value[UnwindRegisters::kPc] == 0) return CfiStep::outermost;  // a thread's first frame
  r.value[UnwindRegisters::kSp] = cfa;
  r.known |= 1u << UnwindRegisters::kSp;
  return CfiStep::stepped;
}

// Whether a step by `recipe` finds the caller's pc and frame pointer from the stack pointer, the
// frame pointer and the stack's words alone: no other register of the frame decides them.
bool recipe_follows_sp_and_fp(const UnwindRecipe& recipe) noexcept;

// Whether a step by `recipe` gives the caller this frame's frame pointer as it is (the frame neither
// saved nor changed it).
bool recipe_keeps_fp(const UnwindRecipe& recipe) noexcept;

// Steps from the frame whose registers `r` holds to its caller. `innermost`: r.value[kPc] is the
// interrupted instruction itself, not a return address (which is looked up one byte back, inside the
// call). [stack_low, stack_high) bounds every read of the stack.
CfiStep cfi_step(const UnwindTables& tables, UnwindRegisters& r, bool innermost, std::uintptr_t stack_low,
                 std::uintptr_t stack_high) noexcept;

}  // namespace parperf::runtime
