#include "runtime/stack_walk.hpp"

#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstring>

#include "runtime/cfi_unwind.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/walk_memo.hpp"

// The walk reads the interrupted thread's stack word by word, its frames' unused slots included:
// under AddressSanitizer those are poisoned redzones, which is expected here, not a bug.
#define PARPERF_READS_FOREIGN_STACK __attribute__((no_sanitize("address")))

namespace parperf::runtime {
namespace {

std::uintptr_t hex_at(const char*& p, const char* end) {
  std::uintptr_t value = 0;
  for (; p < end; ++p) {
    const char c = *p;
    if (c >= '0' && c <= '9')
      value = value * 16 + static_cast<std::uintptr_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      value = value * 16 + static_cast<std::uintptr_t>(c - 'a' + 10);
    else
      break;
  }
  return value;
}

struct Registers {
  std::uintptr_t pc = 0, sp = 0, fp = 0;
};

Registers registers_of(const ucontext_t& context) {
  Registers r;
#if defined(__x86_64__)
  r.pc = static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RIP]);
  r.sp = static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RSP]);
  r.fp = static_cast<std::uintptr_t>(context.uc_mcontext.gregs[REG_RBP]);
#elif defined(__aarch64__)
  r.pc = context.uc_mcontext.pc;
  r.sp = context.uc_mcontext.sp;
  r.fp = context.uc_mcontext.regs[29];
#else
  (void)context;
#endif
  return r;
}

// Whether the instruction before `address` is a call: `address` is then a return address, not a word
// of data that happens to point into code.
bool follows_call(std::uintptr_t address, const CodeRange* range) {
  if (!range || !range->readable || address < range->start + 8) return false;
#if defined(__x86_64__)
  const auto* code = reinterpret_cast<const unsigned char*>(address);
  if (code[-5] == 0xe8) return true;  // call rel32
  // call r/m64 (FF /2): register or memory operand with no, 8-bit or 32-bit displacement.
  const auto indirect = [&](int length, bool (*mode)(unsigned char)) {
    return code[-length] == 0xff && ((code[-length + 1] >> 3) & 7) == 2 && mode(code[-length + 1]);
  };
  if (indirect(2, [](unsigned char m) {
        return (m >> 6) == 3 || ((m >> 6) == 0 && (m & 7) != 4 && (m & 7) != 5);
      }))
    return true;
  if (indirect(3, [](unsigned char m) { return (m >> 6) == 1 && (m & 7) != 4; })) return true;
  if (indirect(3, [](unsigned char m) { return (m >> 6) == 0 && (m & 7) == 4; })) return true;  // [sib]
  if (indirect(4, [](unsigned char m) { return (m >> 6) == 1 && (m & 7) == 4; })) return true;  // [sib+d8]
  if (indirect(6, [](unsigned char m) { return (m >> 6) == 2 || ((m >> 6) == 0 && (m & 7) == 5); }))
    return true;
  return false;
#elif defined(__aarch64__)
  std::uint32_t instruction;
  __builtin_memcpy(&instruction, reinterpret_cast<const void*>(address - 4), 4);
  return (instruction & 0xfc000000u) == 0x94000000u || (instruction & 0xfffffc1fu) == 0xd63f0000u;  // bl, blr
#else
  return false;
#endif
}

// Where the interrupted function's return address is when it has no frame of its own: the first word
// between the stack pointer and the frame pointer's frame that returns after a call (0: none).
PARPERF_READS_FOREIGN_STACK std::uintptr_t unframed_return_slot(std::uintptr_t sp, std::uintptr_t fp,
                                                                std::uintptr_t high, std::intptr_t offset) {
  constexpr std::uintptr_t kSearchedWords = 64;
  const std::uintptr_t limit = fp >= sp && fp < high ? fp : high - sizeof(std::uintptr_t);
  for (std::uintptr_t at = sp, n = 0; at < limit && n < kSearchedWords; at += sizeof(std::uintptr_t), ++n) {
    const std::uintptr_t word =
        *reinterpret_cast<const std::uintptr_t*>(at + static_cast<std::uintptr_t>(offset));
    if (follows_call(word, walkable_code_range_of(word))) return at;
  }
  return 0;
}

UnwindRegisters unwind_registers_of(const ucontext_t& context, const Registers& r);

// The interrupted registers a signal handler's return frame holds: at the trampoline's frame (its pc
// the trampoline, its stack pointer the handler's CFA) the kernel's ucontext lies at the stack
// pointer, its general registers at their offset in it. False when they are not inside the stack.
PARPERF_READS_FOREIGN_STACK bool interrupted_registers(std::uintptr_t uc, const StackBounds& stack,
                                                       std::uintptr_t low, UnwindRegisters& out) {
#if defined(__x86_64__)
  const std::uintptr_t gregs = uc + offsetof(ucontext_t, uc_mcontext.gregs);
  if (uc < low || (uc & 7) != 0 || gregs + NGREG * sizeof(greg_t) > stack.high) return false;
  const auto* context = reinterpret_cast<const ucontext_t*>(uc + static_cast<std::uintptr_t>(stack.offset));
  const Registers r{static_cast<std::uintptr_t>(context->uc_mcontext.gregs[REG_RIP]),
                    static_cast<std::uintptr_t>(context->uc_mcontext.gregs[REG_RSP]),
                    static_cast<std::uintptr_t>(context->uc_mcontext.gregs[REG_RBP])};
  out = unwind_registers_of(*context, r);
  return r.pc != 0;
#else
  (void)uc, (void)stack, (void)low, (void)out;
  return false;
#endif
}

}  // namespace

bool is_signal_return(std::uintptr_t address) noexcept {
#if defined(__x86_64__)
  // glibc's __restore_rt: mov $15, %rax (rt_sigreturn); syscall.
  static constexpr unsigned char kRestore[] = {0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05};
  const CodeRange* range = walkable_code_range_of(address);
  return range && range->readable && address + sizeof kRestore <= range->end &&
         std::memcmp(reinterpret_cast<const void*>(address), kRestore, sizeof kRestore) == 0;
#else
  (void)address;
  return false;
#endif
}

bool is_process_entry(std::uintptr_t address) noexcept {
  // The loader's entry (glibc's RTLD_START: _start, then _dl_start_user calling _dl_init) and a
  // program's _start are a few dozen bytes; the loader's has no table entry at all.
  constexpr std::uintptr_t kEntryCode = 128;
  const auto at = [&](std::uintptr_t entry) { return entry != 0 && address - entry < kEntryCode; };
  if (at(getauxval(AT_ENTRY))) return true;
  const std::uintptr_t loader = getauxval(AT_BASE);  // 0 for a program run without the loader
  return loader != 0 && at(loader + reinterpret_cast<const ElfW(Ehdr)*>(loader)->e_entry);
}

StackBounds stack_bounds_of(std::uintptr_t address) noexcept {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buffer[4096];
  std::size_t filled = 0;
  StackBounds found{};
  for (;;) {
    const ssize_t n = read(fd, buffer + filled, sizeof buffer - filled);
    if (n <= 0) break;
    filled += static_cast<std::size_t>(n);
    // Every complete line: "low-high perms ..."
    std::size_t consumed = 0;
    for (;;) {
      const char* line = buffer + consumed;
      const void* newline = std::memchr(line, '\n', filled - consumed);
      if (!newline) break;
      const char* end = static_cast<const char*>(newline);
      const char* p = line;
      const std::uintptr_t low = hex_at(p, end);
      if (p < end && *p == '-') ++p;
      const std::uintptr_t high = hex_at(p, end);
      if (address >= low && address < high)
        found = {low, high, end - p >= 7 && std::memcmp(end - 7, "[stack]", 7) == 0};
      consumed = static_cast<std::size_t>(end + 1 - buffer);
    }
    std::memmove(buffer, buffer + consumed, filled - consumed);
    filled -= consumed;
    if (filled == sizeof buffer) filled = 0;  // a line longer than the buffer: no address in it for us
    if (found.high) break;
  }
  close(fd);
  return found;
}

namespace {

// The registers of the interrupted context, by DWARF number (cfi_unwind.hpp).
UnwindRegisters unwind_registers_of(const ucontext_t& context, const Registers& r) {
  UnwindRegisters u;
#if defined(__x86_64__)
  constexpr int kGreg[16] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
                             REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
  for (int reg = 0; reg < 16; ++reg)
    u.set(reg, static_cast<std::uintptr_t>(context.uc_mcontext.gregs[kGreg[reg]]));
#else
  (void)context;
#endif
  u.set(UnwindRegisters::kSp, r.sp);
  u.set(UnwindRegisters::kFp, r.fp);
  u.set(UnwindRegisters::kPc, r.pc);
  return u;
}

// The walk of walk_stack: each frame by its module's call-frame information where it has an entry
// for the frame's code, else by the frame pointer. `context` null: only frame pointers (a function's
// own frame, whose other registers are not known). `unframed`: the interrupted function may not have
// set up its frame. `memo`: the thread's last walk, reused where it is sure to be the same (walk_memo.hpp).
PARPERF_READS_FOREIGN_STACK std::uint32_t walk(const ucontext_t* context, const Registers& r, bool unframed,
                                               const StackBounds& stack, std::uintptr_t* frames,
                                               std::uint32_t capacity, bool* whole, UnwindCache* cache,
                                               WalkMemo* memo) {
  if (whole) *whole = false;
  // Before any return: a walk that returns without finishing leaves the memo's last walk not its own.
  const std::uint32_t generation = code_generation();
  WalkRecorder recorder(context ? memo : nullptr, generation, code_range_count(), stack.low, stack.high,
                        stack.offset);
  if (r.pc == 0 || capacity == 0) return 0;
  std::uint32_t count = 0;
  frames[count++] = r.pc;
  constexpr std::uintptr_t kMainStackReach = 8u << 20;
  std::uintptr_t low = stack.low;
  if (stack.grows_down && stack.high > kMainStackReach && r.sp >= stack.high - kMainStackReach) low = r.sp;
  if (r.sp < low || r.sp >= stack.high) return count;  // on another stack (a signal stack)
  UnwindRegisters u;
  if (context) {
    u = unwind_registers_of(*context, r);
  } else {
    u.set(UnwindRegisters::kPc, r.pc);
    u.set(UnwindRegisters::kSp, r.sp);
    u.set(UnwindRegisters::kFp, r.fp);
  }
  bool innermost = true;
  bool ended = false;  // by itself, not for want of room
  bool reached_first = false;
  const UnwindRecipe* caller_recipe = nullptr;  // of the frame stepped to, found when it was checked
  UnwindRecipe made;  // a recipe made for new code, for the step that made it (here, not in the loop:
                      // clearing it at every frame cost more than the step)
  while (count < capacity) {
    recorder.enter(count - 1, u);
    if (!innermost && recorder.reuse(count - 1, u, frames, capacity, count, reached_first)) {
      if (whole) *whole = reached_first;
      recorder.finish(count, reached_first, false);
      return count;
    }
    StepReads& reads = recorder.reads();
    bool follows_sp_and_fp = true;
    const std::uintptr_t pc = u.value[UnwindRegisters::kPc];
    // The trampoline as the caller of a handler, or interrupted itself (at its first instruction or
    // its system call, 7 bytes on: the stack pointer is the same at both).
    if (context && (innermost ? is_signal_return(pc) || is_signal_return(pc - 7) : is_signal_return(pc))) {
      // A signal handler's return (its tables' entry is an expression, not evaluated): the walk goes
      // on from the interrupted code, whose registers the kernel saved beside it. Never copied
      // across by the memo (the step reads more than a pc and a frame pointer).
      recorder.stepped(false, false, false);
      UnwindRegisters interrupted;
      if (!interrupted_registers(u.value[UnwindRegisters::kSp], stack, low, interrupted)) {
        ended = true;
        break;
      }
      u = interrupted;
      frames[count++] = u.value[UnwindRegisters::kPc];
      caller_recipe = nullptr;
      innermost =
          true;  // an interrupted instruction, as the walk's first: its own recipe, maybe no frame yet
      continue;
    }
    if (context) {
      const std::uintptr_t lookup = innermost ? pc : pc - 1;
      const UnwindRecipe* recipe = caller_recipe ? caller_recipe : cached_recipe(cache, generation, lookup);
      caller_recipe = nullptr;
      if (!recipe) {
        // New code: its module's tables, read once, its recipe kept. An address in no module has none.
        if (const CodeRange* code = walkable_code_range_of(lookup)) {
          made = make_recipe(unwind_tables_of(code->module), lookup);
          made.generation = generation;
          if (cache) keep_recipe(*cache, made);
          recipe = &made;
        }
      }
      if (recipe) follows_sp_and_fp = recipe->follows_sp_and_fp;
      const CfiStep step =
          recipe ? step_by_recipe(*recipe, u, low, stack.high, &reads, stack.offset) : CfiStep::no_entry;
      if (step == CfiStep::outermost) {
        recorder.stepped(follows_sp_and_fp, false, false);
        reached_first = ended = true;
        break;
      }
      if (step == CfiStep::stepped) {
        recorder.stepped(follows_sp_and_fp, recipe->cfa_register == UnwindRegisters::kFp, recipe->keeps_fp);
        // The caller is kept only when it returns into code: a kept recipe says so at once.
        const std::uintptr_t caller = u.value[UnwindRegisters::kPc];
        caller_recipe = cached_recipe(cache, generation, caller - 1);
        if (!caller_recipe && !walkable_code_range_of(caller)) {
          ended = true;
          break;
        }
        frames[count++] = caller;
        innermost = false;
        continue;
      }
    }
    // No table entry for this frame's code. The process's entry code has none in the loader: it is
    // the main thread's first frame (the libraries' initializers run from it before main).
    if (is_process_entry(innermost ? pc : pc - 1)) {
      recorder.stepped(follows_sp_and_fp, false, false);
      reached_first = ended = true;
      break;
    }
    // Else by its frame pointer.
    const std::uintptr_t sp = u.value[UnwindRegisters::kSp];
    const std::uintptr_t fp = u.has(UnwindRegisters::kFp) ? u.value[UnwindRegisters::kFp] : 0;
    if (innermost && unframed && (sp & 7) == 0)
      if (const std::uintptr_t slot = unframed_return_slot(sp, fp, stack.high, stack.offset)) {
        recorder.stepped(false, true, false);  // the innermost frame: never reused
        const std::uintptr_t caller =
            *reinterpret_cast<const std::uintptr_t*>(slot + static_cast<std::uintptr_t>(stack.offset));
        frames[count++] = caller;
        u = {};
        u.set(UnwindRegisters::kPc, caller);
        u.set(UnwindRegisters::kSp, slot + sizeof(std::uintptr_t));
        u.set(UnwindRegisters::kFp, fp);
        innermost = false;
        continue;
      }
    innermost = false;
    ended = true;
    if (fp < sp || fp + 2 * sizeof(std::uintptr_t) > stack.high || (fp & 7) != 0) {
      recorder.stepped(follows_sp_and_fp, true, false);
      break;
    }
    const auto* frame =
        reinterpret_cast<const std::uintptr_t*>(fp + static_cast<std::uintptr_t>(stack.offset));
    const std::uintptr_t next = frame[0];
    const std::uintptr_t return_address = frame[1];
    reads.add(fp, next);
    reads.add(fp + sizeof(std::uintptr_t), return_address);
    recorder.stepped(follows_sp_and_fp, true, false);
    // Code without frame pointers uses the register for data: a "frame" it points to ends the walk
    // unless its return address returns after a call (where the code can be read to tell).
    const CodeRange* code = walkable_code_range_of(return_address);
    if (!code || (code->readable && !follows_call(return_address, code))) break;
    frames[count++] = return_address;
    u = {};
    u.set(UnwindRegisters::kPc, return_address);
    u.set(UnwindRegisters::kSp, fp + 2 * sizeof(std::uintptr_t));
    u.set(UnwindRegisters::kFp, next);
    if (next <= fp) {
      // The walk ends at the caller for what this frame read: its record has no step of its own.
      recorder.enter(count - 1, u);
      recorder.stepped(true, false, false);
      break;
    }
    ended = false;
  }
  if (whole) *whole = reached_first;
  recorder.finish(count, reached_first, !ended);
  return count;
}

}  // namespace

std::uint32_t walk_stack(const ucontext_t& context, const StackBounds& stack, std::uintptr_t* frames,
                         std::uint32_t capacity, bool* whole, UnwindCache* cache, WalkMemo* memo) noexcept {
  return walk(&context, registers_of(context), true, stack, frames, capacity, whole, cache, memo);
}

std::uint32_t walk_stack_from_frame(std::uintptr_t pc, std::uintptr_t frame, const StackBounds& stack,
                                    std::uintptr_t* frames, std::uint32_t capacity) noexcept {
  return walk(nullptr, {pc, frame, frame}, false, stack, frames, capacity, nullptr, nullptr, nullptr);
}

}  // namespace parperf::runtime
