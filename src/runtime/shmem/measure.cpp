// The measurement of one OpenSHMEM call (measure.hpp): a clock read on entry, one on exit, the
// operation handed to the runtime in one call.
#include "runtime/shmem/measure.hpp"

#include <atomic>

#include "runtime/collector_api.h"
#include "runtime/shmem/lock_identity.hpp"
#include "runtime/shmem/shmem_section.hpp"

namespace parperf::shmem {
namespace {

// Inside a measured call: the library's calls of its own public entry points are not the program's.
constinit thread_local bool t_inside __attribute__((tls_model("initial-exec"))) = false;

// 0 not yet known, 1 measuring, 2 not: asked once, the runtime's answer does not change back.
std::atomic<int> g_measuring{0};

// File name prefixes of the libraries under OSHMEM (Open MPI, PMIx, UCX): their threads are not the
// program's.
constexpr const char* kLibraries[] = {"liboshmem", "libopen-pal", "libopen-rte", "libmpi", "libpmix",
                                      "libevent",  "libucs",      "libucp",      "libuct", "libucm",
                                      "libhwloc",  "libfabric",   "mca_",        nullptr};

bool measuring() {
  int state = g_measuring.load(std::memory_order_relaxed);
  if (__builtin_expect(state == 0, 0)) {
    // The first call of the process (shmem_init, before the library starts its threads).
    parperf_collector_foreign_threads(kLibraries);
    state = parperf_collector_active() ? 1 : 2;
    g_measuring.store(state, std::memory_order_relaxed);
  }
  return state == 1;
}

// Ends the measured part of a call: the clock first, then the operation.
parperf_operation end_call(const Call& call) {
  const std::uint64_t end = parperf_collector_now();
  t_inside = false;
  parperf_operation operation{};
  operation.name = call.name;
  operation.address = call.caller;
  operation.kind = static_cast<std::uint32_t>(call.kind);
  operation.start = call.start;
  operation.end = end;
  operation.partner = -1;
  return operation;
}

}  // namespace

bool begin(Call& call, const char* name, format::SiteKind kind, const void* caller) noexcept {
  if (t_inside || !measuring()) return false;
  t_inside = true;
  call.name = name;
  call.kind = kind;
  call.caller = caller;
  call.start = parperf_collector_now();
  return true;
}

void finish_plain(Call& call) noexcept {
  const parperf_operation operation = end_call(call);
  parperf_collector_record(&operation, nullptr);
}

void finish_waiting(Call& call, std::int64_t active_set) noexcept {
  parperf_operation operation = end_call(call);
  operation.wait = operation.end - operation.start;
  operation.match = active_set;
  parperf_collector_record(&operation, nullptr);
}

void finish_lock(Call& call, const volatile long* lock, LockStep step, bool acquired) noexcept {
  parperf_operation operation = end_call(call);
  if (step == LockStep::wait_for_it) operation.wait = operation.end - operation.start;
  if (step == LockStep::release || acquired) operation.match = lock_identity(lock);
  parperf_collector_record(&operation, nullptr);
}

void finish_rma(Call& call, format::OneSidedOperation kind, std::uint64_t bytes, int pe) noexcept {
  parperf_operation operation = end_call(call);
  operation.bytes = bytes;
  operation.partner = pe;
  parperf_collector_record(&operation, nullptr);
  add_traffic(kind, pe, bytes);
}

void finish_collective(Call& call, std::uint64_t bytes, int root, std::int64_t active_set) noexcept {
  parperf_operation operation = end_call(call);
  operation.bytes = bytes;
  operation.partner = root;
  operation.match = active_set;
  parperf_collector_record(&operation, nullptr);
}

}  // namespace parperf::shmem
