// Which OpenSHMEM lock a shmem_set_lock, shmem_test_lock or shmem_clear_lock names, told the same way
// on every PE, so that the trace analysis can hand a lock from one holder to the next
// (src/analysis/trace/window_locks.hpp).
//
// A lock is a symmetric variable: the same object on every PE, at an address that need not be the
// same. OSHMEM maps the symmetric heap at one fixed address in every PE (0xff000000 on Linux), so a
// lock in it is its address; a global or static lock lies in the program's image, which address-space
// randomization loads at a different place in each PE, so such a lock is its offset in the image.
#pragma once

#include <cstdint>

namespace parperf::shmem {

// Finds where the program's image lies: once, from shmem_init (after_init), before any lock call.
void remember_program_image() noexcept;

// The lock's identity, never 0: format::kShmemLockInImage | offset for a lock in the program's image,
// else its address.
std::int64_t lock_identity(const volatile void* lock) noexcept;

}  // namespace parperf::shmem
