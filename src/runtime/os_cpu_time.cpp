#include "runtime/os_cpu_time.hpp"

#include <sys/resource.h>
#include <time.h>

namespace parperf::runtime {
namespace {

std::uint64_t to_ns(const timeval& tv) {
  return static_cast<std::uint64_t>(tv.tv_sec) * 1000000000u + static_cast<std::uint64_t>(tv.tv_usec) * 1000u;
}

}  // namespace

void sample_os_cpu_time(ThreadState& thread, std::uint64_t now, Node* node) noexcept {
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) != 0) return;
  const std::uint64_t user = to_ns(usage.ru_utime);
  const std::uint64_t sys = to_ns(usage.ru_stime);
  if (node) {
    if (user > thread.last_user_ns) node->os_user_self_ns.add(user - thread.last_user_ns);
    if (sys > thread.last_sys_ns) node->os_sys_self_ns.add(sys - thread.last_sys_ns);
  }
  thread.last_user_ns = user;
  thread.last_sys_ns = sys;
  thread.sampled_cpu_ns.set(user + sys);
  thread.last_cpu_sample_ticks = now;
}

std::uint64_t thread_cpu_ns(std::int64_t os_tid) noexcept {
  // The kernel's per-thread CPU-time clock id (what pthread_getcpuclockid computes): ~tid << 3,
  // with CPUCLOCK_PERTHREAD (4) and CPUCLOCK_SCHED (2) in the low bits.
  const auto clock = static_cast<clockid_t>((~static_cast<unsigned long>(os_tid) << 3) | 6u);
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace parperf::runtime
