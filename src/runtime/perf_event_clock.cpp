#include "runtime/perf_event_clock.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace parperf::runtime {
namespace {

std::atomic<int> g_open{0};  // descriptors held now

// Every descriptor number a clock had, an open-addressed set (0: empty slot, else fd + 1). Numbers
// are reused (each new clock takes the lowest free one above the floor), so they stay few; a full
// set only means a late signal of an unlisted number goes to the program's disposition.
constexpr std::size_t kKnownSlots = 4096;
std::atomic<int> g_known[kKnownSlots];

void remember(int fd) {
  const auto start = static_cast<std::size_t>(fd) % kKnownSlots;
  for (std::size_t i = 0; i < kKnownSlots; ++i) {
    std::atomic<int>& slot = g_known[(start + i) % kKnownSlots];
    int seen = slot.load(std::memory_order_acquire);
    if (seen == fd + 1) return;
    if (seen == 0 && slot.compare_exchange_strong(seen, fd + 1, std::memory_order_acq_rel)) return;
    if (seen == fd + 1) return;
  }
}

struct Budget {
  int lowest = 0;  // the least number a descriptor is moved to
  int most = 0;    // how many may be open at once
};

Budget budget() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) limit.rlim_cur = 1024;
  const auto soft = static_cast<long>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
  return {static_cast<int>(soft / 2), static_cast<int>(std::min<long>(soft / 4, 1024))};
}

}  // namespace

int open_cpu_clock(std::uint64_t period_ns, int signal) noexcept {
  const Budget b = budget();
  if (g_open.fetch_add(1, std::memory_order_relaxed) >= b.most) {
    g_open.fetch_sub(1, std::memory_order_relaxed);
    return -1;
  }
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = period_ns;  // a clock event's period is in nanoseconds
  attr.disabled = 1;
  attr.exclude_kernel = 1;  // a thread's own user-space time: what perf_event_paranoid 2 allows
  attr.exclude_hv = 1;
  attr.wakeup_events = 1;
  const long opened = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  int fd = static_cast<int>(opened);
  if (opened >= 0 && opened < b.lowest) {
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, b.lowest);
    close(fd);
    fd = moved;
  }
  f_owner_ex owner{F_OWNER_TID, static_cast<pid_t>(syscall(SYS_gettid))};
  if (fd < 0 || fcntl(fd, F_SETFL, O_ASYNC) != 0 || fcntl(fd, F_SETSIG, signal) != 0 ||
      fcntl(fd, F_SETOWN_EX, &owner) != 0) {
    if (fd >= 0) close(fd);
    g_open.fetch_sub(1, std::memory_order_relaxed);
    return -1;
  }
  remember(fd);  // before it can send anything
  return fd;
}

bool is_cpu_clock(int fd) noexcept {
  if (fd < 0) return false;
  const auto start = static_cast<std::size_t>(fd) % kKnownSlots;
  for (std::size_t i = 0; i < kKnownSlots; ++i) {
    const int seen = g_known[(start + i) % kKnownSlots].load(std::memory_order_acquire);
    if (seen == fd + 1) return true;
    if (seen == 0) return false;
  }
  return false;
}

bool enable_cpu_clock(int fd) noexcept {
  return ioctl(fd, PERF_EVENT_IOC_RESET, 0) == 0 && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) == 0;
}

void close_cpu_clock(int fd) noexcept {
  if (fd < 0) return;
  ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
  close(fd);
  g_open.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace parperf::runtime
