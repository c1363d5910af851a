// The call path of an interrupted thread, from the signal's machine context. Async-signal-safe, no
// allocation, no lock, and it never faults. Each frame is stepped to its caller by the call-frame
// information of its module (.eh_frame, cfi_unwind.hpp) where the module has an entry for its code,
// as debuggers and perf's DWARF call graphs walk code built without frame pointers; else by the frame
// pointer:
//
// - a frame pointer is followed only while it lies inside the thread's own stack (the mapping that
//   held the thread's stack when it started sampling), above the interrupted stack pointer,
//   8-byte aligned and strictly increasing, so every word read is mapped and the walk ends;
// - a return address is kept only when it points into an executable segment of a loaded module
//   (code_modules.hpp). Code built without frame pointers uses the register for data: the walk
//   then stops at the first word that is not a return address;
// - the interrupted function may not have set up its frame (a sample in a prologue or epilogue of
//   code without tables): the frame pointer is then its caller's, and the walk would skip the caller.
//   So the words between the stack pointer and the frame pointer are searched for the first one that
//   returns to just after a call instruction; found, it is the caller.
//
// Why not libunwind: it finds each module's tables through dl_iterate_phdr, which takes the loader's
// lock: a sample landing while the thread loads a library would deadlock. The tables here are found
// through the module registry, filled off the signal path.
#pragma once

#include <ucontext.h>

#include <cstdint>

#include "runtime/cfi_unwind.hpp"
#include "runtime/walk_memo.hpp"

namespace parperf::runtime {

struct StackBounds {
  std::uintptr_t low = 0;  // [low, high): the thread's stack mapping
  std::uintptr_t high = 0;
  // The process's main stack ("[stack]"), which the kernel extends downwards as it is used: any
  // stack pointer in the 8 MB below `high` is in it, and everything between it and `high` is mapped.
  bool grows_down = false;
  // Where its words are read: at their address + `offset`. 0 for the live stack; for a sample's copy
  // of the top of a stack (perf_sample_buffer.hpp), [low, high) are the copied addresses and the
  // offset leads to the copy: the walk computes with the thread's own addresses and registers.
  std::intptr_t offset = 0;
};

// Whether `address` is the C library's signal trampoline (x86-64 __restore_rt), where a signal
// handler returns to: the walk steps through it to the interrupted code. Async-signal-safe.
bool is_signal_return(std::uintptr_t address) noexcept;

// Whether `address` is in the code the kernel starts the process at: the dynamic loader's entry
// (which runs the libraries' initializers, then jumps to the program's) or the program's own. It has
// no caller: a walk that reaches it, even without a table entry for it, reached the thread's first
// frame. Async-signal-safe (the auxiliary vector and the loader's mapped ELF header).
bool is_process_entry(std::uintptr_t address) noexcept;

// The mapping of /proc/self/maps that holds `address` (a local variable of the calling thread):
// read with open/read into a buffer on the stack, no allocation. {0, 0} when not found.
StackBounds stack_bounds_of(std::uintptr_t address) noexcept;

// Fills frames[0] with the interrupted instruction and frames[1..] with return addresses, innermost
// first; returns how many (at least 1 when the context holds a program counter). `whole`, when given,
// says whether the walk reached the thread's first frame (its tables mark the return address of
// _start or of the thread's start routine as undefined); a path cut at `capacity` frames is not whole.
// `cache`, when given, keeps the recipes of the frames walked through (cfi_unwind.hpp): the thread's own.
// `memo`, when given, keeps the walk, and the next walk copies the frames it is sure to share with it
// (walk_memo.hpp): the thread's own.
std::uint32_t walk_stack(const ucontext_t& context, const StackBounds& stack, std::uintptr_t* frames,
                         std::uint32_t capacity, bool* whole = nullptr, UnwindCache* cache = nullptr,
                         WalkMemo* memo = nullptr) noexcept;

// The same from a function's own frame (its frame pointer, __builtin_frame_address(0)) and an
// instruction inside it: frames[0] = `pc`, then its callers' return addresses, by frame pointers only
// (the function's other registers are not known).
std::uint32_t walk_stack_from_frame(std::uintptr_t pc, std::uintptr_t frame, const StackBounds& stack,
                                    std::uintptr_t* frames, std::uint32_t capacity) noexcept;

}  // namespace parperf::runtime
