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
#include <ctime>

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

// What our traps carry in si_perf_data ("parperf!"), to tell them from other perf events' traps.
constexpr std::uint64_t kTrapCookie = 0x7061727065726621ull;

// The kernel's TRAP_PERF (asm-generic/siginfo.h, which cannot be included beside the C library's
// signal.h), and where si_perf_data lies: the word after si_addr (the union after it, on 64-bit
// Linux, where no architecture puts _trapno first).
constexpr int kTrapPerf = 6;
static_assert(sizeof(void*) == 8, "si_perf_data's place is worked out for 64-bit Linux");

std::uint64_t perf_data_of(const siginfo_t& info) {
  std::uint64_t data;
  __builtin_memcpy(&data, reinterpret_cast<const char*>(&info.si_addr) + sizeof(void*), sizeof data);
  return data;
}

Budget budget() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) limit.rlim_cur = 1024;
  const auto soft = static_cast<long>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
  return {static_cast<int>(soft / 2), static_cast<int>(std::min<long>(soft / 4, 1024))};
}

}  // namespace

namespace {

perf_event_attr cpu_clock_attr(std::uint64_t period_ns) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = period_ns;  // a clock event's period is in nanoseconds
  attr.disabled = 1;
  attr.exclude_kernel = 1;  // a thread's own user-space time: what perf_event_paranoid 2 allows
  attr.exclude_hv = 1;
  return attr;
}

// The calling thread's event by `attr` (by `trapped` first, when given), within the budget, moved
// above the program's numbers; with the descriptor's signal `signal` sent to the thread unless it
// traps or `signal` is 0. -1 when the kernel refuses.
int open_event(perf_event_attr& attr, const perf_event_attr* trapped, int signal, bool* trapping) {
  if (trapping) *trapping = false;
  const Budget b = budget();
  if (g_open.fetch_add(1, std::memory_order_relaxed) >= b.most) {
    g_open.fetch_sub(1, std::memory_order_relaxed);
    return -1;
  }
  long opened = -1;
  bool trap = false;
  if (trapped) {
    opened = syscall(SYS_perf_event_open, trapped, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    trap = opened >= 0;  // else a kernel before 5.13: the descriptor's signal
  }
  if (!trap) opened = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  int fd = static_cast<int>(opened);
  if (opened >= 0 && opened < b.lowest) {
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, b.lowest);
    close(fd);
    fd = moved;
  }
  f_owner_ex owner{F_OWNER_TID, static_cast<pid_t>(syscall(SYS_gettid))};
  if (fd < 0 || (!trap && signal != 0 &&
                 (fcntl(fd, F_SETFL, O_ASYNC) != 0 || fcntl(fd, F_SETSIG, signal) != 0 ||
                  fcntl(fd, F_SETOWN_EX, &owner) != 0))) {
    if (fd >= 0) close(fd);
    g_open.fetch_sub(1, std::memory_order_relaxed);
    return -1;
  }
  remember(fd);  // before it can send anything
  if (trapping) *trapping = trap;
  return fd;
}

}  // namespace

int open_cpu_clock(std::uint64_t period_ns, int signal, bool trap, bool* trapping) noexcept {
  perf_event_attr attr = cpu_clock_attr(period_ns);
  perf_event_attr trapped = attr;
  trapped.sigtrap = 1;
  trapped.remove_on_exec = 1;  // the kernel asks for it with sigtrap: an exec'd program gets no trap
  trapped.sig_data = kTrapCookie;
  attr.wakeup_events = 1;
  return open_event(attr, trap ? &trapped : nullptr, signal, trapping);
}

int open_buffered_cpu_clock(std::uint64_t period_ns, const BufferedSampleFormat& format) noexcept {
  perf_event_attr attr = cpu_clock_attr(period_ns);
  attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  attr.sample_regs_user = format.registers;
  attr.sample_stack_user = format.stack_bytes;
  attr.use_clockid = 1;  // the samples' times on the monotonic clock, as clock_gettime reads it
  attr.clockid = CLOCK_MONOTONIC;
  // No signal: with O_ASYNC the kernel would signal every sample, whatever the wakeup watermark.
  return open_event(attr, nullptr, 0, nullptr);
}

bool is_cpu_clock_trap(const siginfo_t& info) noexcept {
  return info.si_signo == SIGTRAP && info.si_code == kTrapPerf && perf_data_of(info) == kTrapCookie;
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
