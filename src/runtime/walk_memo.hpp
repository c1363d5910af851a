// What a thread's last stack walk found, kept so that the next walk can stop early: consecutive samples
// of a thread mostly share the outer part of their stack (main, the solver, the time-step loop), and
// walking those frames again costs most of a sample at 64 frames.
//
// Exact, not a guess. A walk's step from a frame to its caller is decided by the frame's pc, stack
// pointer and frame pointer, and by the words of the stack it reads (the saved return address and frame
// pointer) — as long as the step's recipe takes the CFA from the stack or frame pointer and the
// caller's pc and frame pointer from the CFA or the stack (recipe_follows_sp_and_fp: nearly every
// frame; a frame that does not is never reused across). So when the new walk reaches a frame with the
// same pc, stack pointer and frame pointer as a frame of the last walk, and every word the last walk's
// steps read from there outwards still holds the value it read, the rest of the walk would find
// exactly the same frames: they are copied instead. Checking a word costs a load and a compare;
// stepping a frame, a recipe lookup, a table read and a range check. Modules loaded or unloaded since
// (code_generation and the module count change) void the memo, and so does a walk cut short for room.
//
// One per sampled thread, in its private memory; only its own handler touches it. No allocation, no
// lock, no system call.
#pragma once

#include <cstdint>

#include "runtime/call_path_table.hpp"
#include "runtime/cfi_unwind.hpp"

namespace parperf::runtime {

struct WalkMemo {
  static constexpr std::uint32_t kFrames = 128;
  // One frame of a walk: the registers the walk had there, and the words its step to the caller read.
  struct Frame {
    std::uintptr_t pc, sp, fp;
    // The words the step read (fp_only: those that matter only where the caller needs_fp), written
    // there by the step itself (WalkRecorder::reads), not copied. The flags below sit in its tail
    // padding: a shared walk copies its frames, 96 bytes each.
    [[no_unique_address]] StepReads reads;
    bool fp_known;
    bool reusable;  // the step from here follows sp, fp and the words alone, and its reads were whole
    bool uses_fp;   // the step read the frame pointer (the CFA from it, or a frame-pointer step)
    bool keeps_fp;  // the step gave the caller this frame's frame pointer as it is
    bool needs_fp;  // this frame's frame pointer decides a step from here outwards (else it may differ)
  };
  struct Walk {
    Frame frame[kFrames];
    std::uint32_t count = 0;          // frames recorded; the walk's result has as many
    std::uint32_t reusable_from = 0;  // every step from this frame outwards is reusable
    std::uint32_t generation = 0, ranges = 0;
    bool whole = false;
    bool valid = false;        // ended by itself (the thread's first frame, or no caller to be found)
    std::uint64_t number = 0;  // WalkMemo::walks_begun when it was made
    // The call-path table's nodes of the walk's path (call_path_table.hpp): node[i] that of the path's
    // frames i and above, under `nodes_under` (the interval), when nodes_valid; the sampler fills them
    // (node[count]: the outermost frame it may add, [unwinding stopped]). A walk that copied frames from
    // the last one (from frame `copied_from`; count when none) copies their nodes too: valid from
    // there when the last walk's were (copied_nodes_valid), under copied_nodes_under.
    std::uint32_t node[kFrames + 1];
    const void* nodes_under = nullptr;
    bool nodes_valid = false;
    std::uint32_t copied_from = 0;
    const void* copied_nodes_under = nullptr;
    bool copied_nodes_valid = false;
  };
  Walk walks[2];  // the last one and the one being made
  std::uint32_t last = 0;
  std::uint64_t walks_begun = 0;

  // The walk just made, or null when it was not kept (it ended on another stack, or cut for room).
  Walk* latest() noexcept { return walks[last].number == walks_begun ? &walks[last] : nullptr; }
  std::uint64_t frames_reused = 0;  // over all walks: what the memo saved (tests, the bench)
};

static_assert(sizeof(WalkMemo::Frame) <= 96, "a memo frame outgrew 96 bytes: shared walks copy more");

// The walk being made, while it is made (walk_stack in stack_walk.cpp drives these).
class WalkRecorder {
 public:
  // `memo` null: nothing is recorded or reused. The stack's words are read at their address +
  // `offset` (stack_walk.hpp's StackBounds); a copy's only inside [stack_low, stack_high).
  WalkRecorder(WalkMemo* memo, std::uint32_t generation, std::uint32_t ranges, std::uintptr_t stack_low = 0,
               std::uintptr_t stack_high = ~std::uintptr_t{0}, std::intptr_t offset = 0) noexcept;

  // Frame `index` of the new walk, before its step: its registers.
  void enter(std::uint32_t index, const UnwindRegisters& r) noexcept;
  // Where the step from the frame last entered records the words it reads (empty when entered).
  StepReads& reads() noexcept { return *reads_; }
  // The step from the frame last entered read reads(), was (or not) decided by sp, fp and them alone,
  // read the frame pointer (`uses_fp`) and left it to the caller as it was (`keeps_fp`).
  void stepped(bool follows_sp_and_fp, bool uses_fp, bool keeps_fp) noexcept;

  // Whether the frame last entered (`index` ≥ 1, its registers `r`) is one of the last walk's with
  // every word read from there outwards unchanged; then frames[index + 1 ..] are filled from it (no
  // more than `capacity` in all), and the new walk's count and wholeness are returned through them
  // (the walk is over: finish it so).
  bool reuse(std::uint32_t index, const UnwindRegisters& r, std::uintptr_t* frames, std::uint32_t capacity,
             std::uint32_t& count, bool& whole) noexcept {
    return last_ && index > 0 && copy_from_last(index, r, frames, capacity, count, whole);
  }

  // The walk ended by itself with `count` frames (`cut`: for want of room, and then it is not kept).
  void finish(std::uint32_t count, bool whole, bool cut) noexcept;

 private:
  bool copy_from_last(std::uint32_t index, const UnwindRegisters& r, std::uintptr_t* frames,
                      std::uint32_t capacity, std::uint32_t& count, bool& whole) noexcept;

  WalkMemo* memo_;
  std::uintptr_t stack_low_, stack_high_;
  std::intptr_t offset_;
  WalkMemo::Walk* last_ = nullptr;
  WalkMemo::Walk* next_ = nullptr;
  std::uint32_t candidate_ = 1;                // the last walk's frames below this cannot be reused any more
  std::uint32_t current_ = WalkMemo::kFrames;  // the frame last entered; kFrames: none recorded
  StepReads scratch_;                          // the reads of a step not recorded
  StepReads* reads_ = &scratch_;
  bool reused_ = false;
};

// Adds the path of `memo`'s latest walk (frames[0..count-1]: the walk's frames, perhaps with an
// outermost [unwinding stopped] after them, none left out) to `table` as CallPathTable::add_sample
// does, looking up only the frames below those the walk copied from the last one (whose nodes that
// walk kept), and keeps the path's nodes for the next. `memo` null, or its latest walk not this
// path's: add_sample.
std::uint32_t add_walked_path(CallPathTable& table, WalkMemo* memo, const std::uintptr_t* frames,
                              std::uint32_t count, const Node* interval, std::uint64_t weight) noexcept;

// Inline: called at every frame of every walk.
inline void WalkRecorder::enter(std::uint32_t index, const UnwindRegisters& r) noexcept {
  if (!memo_ || index >= WalkMemo::kFrames) {
    current_ = WalkMemo::kFrames;
    reads_ = &scratch_;
    reads_->clear();
    return;
  }
  current_ = index;
  WalkMemo::Frame& f = next_->frame[index];
  f.pc = r.value[UnwindRegisters::kPc];
  f.sp = r.has(UnwindRegisters::kSp) ? r.value[UnwindRegisters::kSp] : 0;
  f.fp_known = r.has(UnwindRegisters::kFp);
  f.fp = f.fp_known ? r.value[UnwindRegisters::kFp] : 0;
  f.reusable = f.uses_fp = f.keeps_fp = false;
  f.reads.clear();
  reads_ = &f.reads;
}

inline void WalkRecorder::stepped(bool follows_sp_and_fp, bool uses_fp, bool keeps_fp) noexcept {
  if (current_ >= WalkMemo::kFrames) return;
  WalkMemo::Frame& f = next_->frame[current_];
  // A word below the frame's stack pointer may lie below a later walk's too, outside its stack.
  bool above = f.sp != 0;
  for (std::uint8_t i = 0; i < f.reads.count; ++i) above = above && f.reads.at[i] >= f.sp;
  f.reusable = follows_sp_and_fp && f.reads.complete && above;
  f.uses_fp = uses_fp;
  f.keeps_fp = keeps_fp;
}

}  // namespace parperf::runtime
