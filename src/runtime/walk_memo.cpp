#include "runtime/walk_memo.hpp"

#include <algorithm>

namespace parperf::runtime {

WalkRecorder::WalkRecorder(WalkMemo* memo, std::uint32_t generation, std::uint32_t ranges,
                           std::uintptr_t stack_low, std::uintptr_t stack_high, std::intptr_t offset) noexcept
    : memo_(memo), stack_low_(stack_low), stack_high_(stack_high), offset_(offset) {
  if (!memo) return;
  last_ = &memo->walks[memo->last];
  next_ = &memo->walks[1 - memo->last];
  next_->valid = false;
  next_->nodes_valid = next_->copied_nodes_valid = false;
  next_->number = ++memo->walks_begun;
  next_->generation = generation;
  next_->ranges = ranges;
  // Code loaded or unloaded since: a return address may now be code where it was not, or the reverse.
  if (!last_->valid || last_->generation != generation || last_->ranges != ranges) last_ = nullptr;
  if (last_) candidate_ = std::max<std::uint32_t>(1, last_->reusable_from);
}

// Reads the thread's stack, its frames' unused slots included (AddressSanitizer's redzones).
__attribute__((no_sanitize("address"))) bool WalkRecorder::copy_from_last(
    std::uint32_t index, const UnwindRegisters& r, std::uintptr_t* frames, std::uint32_t capacity,
    std::uint32_t& count, bool& whole) noexcept {
  if (index >= WalkMemo::kFrames || !r.has(UnwindRegisters::kSp)) return false;
  const WalkMemo::Frame* before = last_->frame;
  const std::uint32_t end = last_->count;
  // Stack pointers climb along a walk: the last walk's frame at this one's, if any, is found by
  // moving forward, never back.
  const std::uintptr_t sp = r.value[UnwindRegisters::kSp];
  while (candidate_ < end && before[candidate_].sp < sp) ++candidate_;
  // Not the last walk's last frame: nothing would be saved, and a walk can end there for a reason
  // the frame before it read (a frame-pointer chain that stops climbing).
  if (candidate_ + 1 >= end) return false;
  const WalkMemo::Frame& match = before[candidate_];
  const bool fp_known = r.has(UnwindRegisters::kFp);
  // The frame pointer counts only where a step reads it: code built without frame pointers keeps
  // data in the register, different at each sample.
  if (match.sp != sp || match.pc != r.value[UnwindRegisters::kPc] ||
      (match.needs_fp &&
       (match.fp_known != fp_known || (fp_known && match.fp != r.value[UnwindRegisters::kFp]))))
    return false;
  const std::uint32_t from = candidate_;
  const std::uint32_t total = index + (end - from);
  if (total > capacity || total > WalkMemo::kFrames) return false;
  for (std::uint32_t i = from; i < end; ++i) {
    // A frame pointer restored for a caller that never reads it (data, in code without frame
    // pointers: a loop counter saved by a callee) may change freely.
    const StepReads& read = before[i].reads;
    const std::uint8_t skipped = i + 1 < end && before[i + 1].needs_fp ? 0 : read.fp_only;
    for (std::uint8_t k = 0; k < read.count; ++k) {
      if ((skipped >> k) & 1u) continue;
      // A copy's word outside it cannot be checked: the last walk's copy reached further.
      if (offset_ != 0 && (read.at[k] < stack_low_ || read.at[k] > stack_high_ - sizeof(std::uintptr_t)))
        return false;
      if (*reinterpret_cast<const volatile std::uintptr_t*>(
              read.at[k] + static_cast<std::uintptr_t>(offset_)) != read.value[k]) {
        candidate_ = i + 1;  // a word changed here: no frame at or below it can be reused this walk
        return false;
      }
    }
  }
  for (std::uint32_t i = from + 1; i < end; ++i) frames[index + (i - from)] = before[i].pc;
  std::copy(before + from, before + end, next_->frame + index);
  std::copy(last_->node + from, last_->node + end + 1, next_->node + index);
  next_->copied_nodes_valid = last_->nodes_valid;
  next_->copied_nodes_under = last_->nodes_under;
  next_->copied_from = index;
  count = total;
  whole = last_->whole;
  memo_->frames_reused += end - from - 1;
  reused_ = true;
  return true;
}

void WalkRecorder::finish(std::uint32_t count, bool whole, bool cut) noexcept {
  if (!memo_ || cut || count == 0 || count > WalkMemo::kFrames) {
    if (memo_) next_->number = 0;  // not kept: latest() says so
    return;
  }
  if (!reused_) next_->copied_from = count;
  next_->count = count;
  next_->whole = whole;
  next_->valid = true;
  std::uint32_t from = count;
  bool reusable = true;  // every frame from here outwards
  bool needed = false;   // by the frames outside
  for (std::uint32_t i = count; i-- > 0;) {
    WalkMemo::Frame& f = next_->frame[i];
    needed = f.needs_fp = f.uses_fp || (f.keeps_fp && needed);
    reusable = reusable && f.reusable;
    if (reusable) from = i;
  }
  next_->reusable_from = from;
  memo_->last = static_cast<std::uint32_t>(next_ - memo_->walks);
}

std::uint32_t add_walked_path(CallPathTable& table, WalkMemo* memo, const std::uintptr_t* frames,
                              std::uint32_t count, const Node* interval, std::uint64_t weight) noexcept {
  WalkMemo::Walk* walk = memo ? memo->latest() : nullptr;
  if (walk && (count < walk->count || count > walk->count + 1)) walk = nullptr;
  std::uint32_t from = count, from_node = CallPathTable::kNoNode;
  if (walk && walk->copied_nodes_valid && walk->copied_nodes_under == interval && walk->copied_from < count) {
    from = walk->copied_from;
    from_node = walk->node[from];
  }
  const std::uint32_t leaf =
      table.add_sample_from(frames, from, from_node, interval, weight, walk ? walk->node : nullptr);
  if (walk) {
    walk->nodes_valid = leaf != CallPathTable::kNoNode;
    walk->nodes_under = interval;
  }
  return leaf;
}

}  // namespace parperf::runtime
