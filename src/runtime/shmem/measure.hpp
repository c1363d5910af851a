// What every OpenSHMEM wrapper calls: the measurement of one call, from the moment the wrapper is
// entered to the moment the pshmem_ function returns.
//
// The wrappers are generated from one table (shmem_functions.py, generate_wrappers.py). A wrapper
// reads:
//
//   parperf::shmem::Call call;
//   if (!parperf::shmem::begin(call, "shmem_int_put", format::SiteKind::shmem_put,
//                              __builtin_return_address(0)))
//     return pshmem_int_put(target, source, len, pe);                 // not measuring, or nested
//   pshmem_int_put(target, source, len, pe);
//   parperf::shmem::finish_rma(call, format::OneSidedOperation::put, len * sizeof(int), pe);
//
// Cost model (bench/shmem/): begin() is a thread-local test, a relaxed load and a clock read; a
// finish is a clock read and one call into the runtime (parperf_collector_record: the site's
// statistics in the thread's innermost interval), plus two relaxed atomic adds into the traffic
// matrix for a put, get or atomic. Nothing allocates, locks or enters the kernel after the first
// call of a site. The thread-local guard matters: Open MPI's OSHMEM calls its own public shmem_
// functions (its locks are built from shmem_int_finc, shmem_get64, shmem_long_wait...; finalize
// calls shmem_barrier_all), and only the program's call is its operation.
#pragma once

#include <cstdint>

#include "format/records.hpp"
#include "format/site_kinds.hpp"

namespace parperf::shmem {

struct Call {
  const char* name = nullptr;  // "shmem_int_put": static storage
  format::SiteKind kind = format::SiteKind::shmem_management;
  const void* caller = nullptr;  // return address into the program
  std::uint64_t start = 0;       // ticks
};

// Starts measuring a call; false when the runtime is not measuring or the thread is already inside
// a measured call (the library calling its own shmem_ entry points): the wrapper then only calls
// the pshmem_ function.
bool begin(Call& call, const char* name, format::SiteKind kind, const void* caller) noexcept;

// A call with nothing to add: fence, quiet, the symmetric heap, test...
void finish_plain(Call& call) noexcept;
// A call whose whole time is waiting: for a value (wait, wait_until), for the
// other PEs of an active set (barrier, sync: `active_set` its match, format/shmem_active_set.hpp).
void finish_waiting(Call& call, std::int64_t active_set = 0) noexcept;
// A lock call on the lock at `lock`: shmem_set_lock (`acquired`, its whole time waiting),
// shmem_test_lock (`acquired` when it took the lock) or shmem_clear_lock (`release`). The lock's
// identity (lock_identity.hpp) is its match when it took or released the lock, 0 when it did not.
enum class LockStep { wait_for_it, try_it, release };
void finish_lock(Call& call, const volatile long* lock, LockStep step, bool acquired) noexcept;
// A put, get or atomic into PE `pe`'s memory, moving `bytes`: an operation with its partner, and a
// cell of the traffic matrix.
void finish_rma(Call& call, format::OneSidedOperation operation, std::uint64_t bytes, int pe) noexcept;
// A collective over an active set (`active_set` its match); `root` the broadcast root's PE (-1 for none).
void finish_collective(Call& call, std::uint64_t bytes, int root, std::int64_t active_set) noexcept;

// Process-wide events. shmem_init (init_thread, start_pes) calls after_init once the pshmem_ call
// returned: the PE and the PE count, asked once and kept, because shmem_my_pe aborts the program
// before init and after finalize. shmem_finalize calls before_finalize before pshmem_finalize;
// shmem_global_exit calls before_global_exit before pshmem_global_exit, which never returns and
// runs no exit handler on the calling PE: the profile is written there.
// Around both calls, before_init / before_finalize's first act and after_setup, the wrapper's last
// (after the call is recorded: the first recording's one-off work is not the program's time either),
// mark the samples between as start-up's and shut-down's, counted apart (collector_api.h).
void before_init() noexcept;
void after_init() noexcept;
void before_finalize() noexcept;
void after_setup() noexcept;
void before_global_exit(int status) noexcept;

}  // namespace parperf::shmem
