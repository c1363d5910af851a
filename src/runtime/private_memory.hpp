// Memory the runtime libraries take for themselves, straight from the kernel, never from the
// program's malloc.
//
// Why: glibc's malloc adapts to the program's own pattern (its mmap and trim thresholds rise with
// the blocks the program frees, its heap shrinks when the top of the heap is free). A tool that
// allocates through the same malloc while the program runs leaves small long-lived blocks on top of
// the program's heap, which then can never shrink: a program whose per-step temporaries faulted
// their pages in every step stops faulting, and runs up to 4x faster measured than unmeasured (seen
// with a hydrodynamics proxy application). So every parperf library (the runtime and every
// collector) takes its memory through these two functions, from private anonymous
// mappings, and links no malloc at all (tests/unit/check_runtime_library.cmake checks the imports).
//
// The allocator is a bump pointer over 256 KB regions, lock-free (a CAS per allocation) and
// async-signal-safe (mmap is), so the writer may use it inside a fatal-signal handler. Memory comes
// zeroed. Small blocks are never returned: the runtime keeps what it allocates until the process
// ends (interval nodes, sites, thread state), and what it replaces (a hash table that grows) is
// bounded by the final size. Large blocks (≥ 64 KB) get a mapping of their own, which
// `release_private` unmaps.
#pragma once

#include <cstddef>
#include <new>

namespace parperf::runtime {

// `bytes` of zeroed memory aligned to `alignment` (a power of two, at most 4096); nullptr when the
// kernel refuses memory. Thread- and async-signal-safe.
void* allocate_private(std::size_t bytes, std::size_t alignment = alignof(std::max_align_t)) noexcept;

// Gives back a block of `allocate_private(bytes, ...)`: unmapped when it had a mapping of its own,
// otherwise kept (see above). nullptr is ignored.
void release_private(void* block, std::size_t bytes) noexcept;

// A NUL-terminated copy of `length` bytes of `text` (which may hold no NUL), or nullptr.
char* copy_text_private(const char* text, std::size_t length) noexcept;

// Objects of a trivially destructible type T built in private memory.
template <typename T>
T* create_private() noexcept {
  void* memory = allocate_private(sizeof(T), alignof(T));
  return memory ? new (memory) T() : nullptr;
}

}  // namespace parperf::runtime
