// The sampler's perf-event CPU clock (runtime/perf_event_clock.hpp), compiled into the test: where
// the kernel allows a thread's own perf events it signals every period of the thread's CPU time,
// with the descriptor in the siginfo; its descriptors are close-on-exec, in the upper half of the
// soft limit, at most a quarter of it at once, and stay known after they are closed (a queued
// signal of a closed clock must not reach the program). Skipped where perf events are not allowed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <vector>

#include "runtime/perf_event_clock.hpp"

namespace parperf::runtime {
namespace {

std::atomic<int> g_signals{0};
std::atomic<int> g_fd{-1};

void count(int, siginfo_t* info, void*) {
  if (info->si_code == POLL_IN && info->si_fd == g_fd.load()) g_signals.fetch_add(1);
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

TEST(PerfEventClock, SignalsEveryPeriodOfTheThreadsCpuTimeFromADescriptorOutOfTheProgramsWay) {
  const int signal = SIGRTMIN + 7;
  struct sigaction action {};
  action.sa_sigaction = count;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  ASSERT_EQ(sigaction(signal, &action, nullptr), 0);
  const int fd = open_cpu_clock(1'000'000, signal);  // 1 ms
  if (fd < 0)
    GTEST_SKIP() << "the kernel does not allow this thread's perf events (perf_event_paranoid > 2?)";
  g_fd = fd;
  rlimit limit{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  EXPECT_GE(fd, static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20) / 2));
  EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
  EXPECT_TRUE(is_cpu_clock(fd));
  EXPECT_FALSE(is_cpu_clock(0)) << "standard input is the program's";
  ASSERT_TRUE(enable_cpu_clock(fd));
  // 200 ms of this thread's CPU time: 200 periods. The clock counts user time (the loop's), the
  // reads of the thread's CPU clock add a little kernel time it leaves out; and each time the thread
  // is switched out and in, the kernel restarts the event's timer with the period left, which on a
  // busy machine gave 15 % more signals (231). Within 25 %: a clock at the scheduler tick (50 at
  // 250 Hz) or one that missed periods stays far outside.
  volatile double x = 0;
  for (const double start = cpu_seconds(); cpu_seconds() - start < 0.2;)
    for (int i = 0; i < 20000; ++i) x = x + i * 0.5;
  close_cpu_clock(fd);
  EXPECT_NEAR(g_signals.load(), 200, 50) << "one signal a millisecond of CPU time";
  EXPECT_TRUE(is_cpu_clock(fd)) << "a closed clock's queued signal must still be known as ours";
}

std::atomic<int> g_traps{0};
std::atomic<int> g_other_traps{0};

void count_trap(int, siginfo_t* info, void*) {
  if (is_cpu_clock_trap(*info))
    g_traps.fetch_add(1);
  else
    g_other_traps.fetch_add(1);
}

// The cheaper delivery (Linux 5.13 and later): the kernel traps the thread itself every period, and
// the trap is told from the program's own by its cookie.
TEST(PerfEventClock, TrapsEveryPeriodOfTheThreadsCpuTimeWhereTheKernelCan) {
  struct sigaction action {};
  action.sa_sigaction = count_trap;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  struct sigaction saved {};
  ASSERT_EQ(sigaction(SIGTRAP, &action, &saved), 0);
  bool trapping = false;
  const int fd = open_cpu_clock(1'000'000, SIGRTMIN + 7, true, &trapping);
  if (fd < 0)
    GTEST_SKIP() << "the kernel does not allow this thread's perf events (perf_event_paranoid > 2?)";
  if (!trapping) {
    close_cpu_clock(fd);
    GTEST_SKIP() << "the kernel has no perf-event traps (before Linux 5.13): the descriptor's signal is used";
  }
  EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
  ASSERT_TRUE(enable_cpu_clock(fd));
  volatile double x = 0;  // 200 ms of CPU time: 200 periods, within 25 % as above
  for (const double start = cpu_seconds(); cpu_seconds() - start < 0.2;)
    for (int i = 0; i < 20000; ++i) x = x + i * 0.5;
  close_cpu_clock(fd);
  raise(SIGTRAP);  // the program's own: not a clock's
  ASSERT_EQ(sigaction(SIGTRAP, &saved, nullptr), 0);
  EXPECT_NEAR(g_traps.load(), 200, 50) << "one trap a millisecond of CPU time";
  EXPECT_EQ(g_other_traps.load(), 1) << "raise(SIGTRAP) taken for a clock's trap, or a clock's for another";
}

TEST(PerfEventClock, AtMostAQuarterOfTheSoftLimitIsOpenAtOnce) {
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 64;  // a quarter: 16 clocks, numbered from 32
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &small), 0);
  std::vector<int> open;
  for (int i = 0; i < 20; ++i)
    if (const int fd = open_cpu_clock(1'000'000, SIGRTMIN + 7); fd >= 0) open.push_back(fd);
  for (const int fd : open) close_cpu_clock(fd);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  if (open.empty()) GTEST_SKIP() << "the kernel does not allow this thread's perf events";
  EXPECT_EQ(open.size(), 16u) << "20 asked for with a soft limit of 64";
  for (const int fd : open) EXPECT_GE(fd, 32);
}

}  // namespace
}  // namespace parperf::runtime
