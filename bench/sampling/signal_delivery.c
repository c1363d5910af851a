/* What the kernel charges a thread for each period of a perf-event CPU clock, by how the period
 * reaches it (runtime/perf_event_clock.hpp): a fixed loop timed in the thread's own CPU time, plain
 * and with a clock of PERIOD_NS that
 *   clock   only counts (no signal: the high-resolution timer's own interrupts),
 *   trap    traps the thread (attr.sigtrap: SIGTRAP at the return to user space),
 *   signal  sends the descriptor's signal (O_ASYNC, F_SETSIG: an irq_work, then the file's fasync),
 * each with an empty handler. Prints "MODE SECONDS PERIODS"; signal_delivery.sh takes turns and
 * divides the difference to the plain loop by the periods.
 *
 * Usage: parperf-bench-signal-delivery plain|clock|trap|signal [PERIOD_NS=100000] [ITERATIONS=200000000] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long g_signals;

static void on_signal(int signal, siginfo_t* info, void* context) {
  (void)signal, (void)info, (void)context;
  g_signals = g_signals + 1;
}

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int open_clock(const char* mode, long period) {
  struct perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_period = (unsigned long long)period;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  if (strcmp(mode, "trap") == 0) {
    attr.sigtrap = 1;
    attr.remove_on_exec = 1;
  } else if (strcmp(mode, "signal") == 0) {
    attr.wakeup_events = 1;
  } else if (strcmp(mode, "buffer") == 0) {
    /* What parperf's buffered sampling asks (runtime/perf_sample_buffer.cpp): no signal, the
       registers and 8 KiB of stack copied a sample. */
    attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
    attr.sample_regs_user = 0x1ffull | (0xffull << 16);
    attr.sample_stack_user = 8192;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
  }
  const int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return -1;
  if (strcmp(mode, "signal") == 0) {
    struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
    if (fcntl(fd, F_SETFL, O_ASYNC) || fcntl(fd, F_SETSIG, SIGPROF) || fcntl(fd, F_SETOWN_EX, &owner))
      return -1;
  }
  return fd;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  const long period = argc > 2 ? atol(argv[2]) : 100000;
  const long iterations = argc > 3 ? atol(argv[3]) : 200000000;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &action, NULL);
  sigaction(SIGTRAP, &action, NULL);
  int fd = -1;
  if (strcmp(mode, "plain") != 0) {
    fd = open_clock(mode, period);
    if (fd < 0) {
      fprintf(stderr, "%s: the kernel refuses a perf-event clock delivered by %s\n", argv[0], mode);
      return 2;
    }
    if (strcmp(mode, "buffer") == 0) {
      /* Room for every sample of the run (the loop cannot stop to take them out): 64 MiB. */
      const size_t bytes = (size_t)(1 + 16384) * 4096;
      if (mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED) {
        fprintf(stderr, "%s: the kernel refuses a 64 MiB sample buffer\n", argv[0]);
        return 2;
      }
    }
    ioctl(fd, PERF_EVENT_IOC_RESET, 0);
    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  }
  const double start = cpu_seconds();
  volatile double x = 1;
  for (long i = 0; i < iterations; ++i) x = x * 1.0000001 + 1e-9;
  const double seconds = cpu_seconds() - start;
  long periods = g_signals;
  if (fd >= 0 && (strcmp(mode, "clock") == 0 || strcmp(mode, "buffer") == 0)) {
    long long count = 0; /* the clock's nanoseconds: its periods */
    if (read(fd, &count, sizeof count) == (ssize_t)sizeof count) periods = (long)(count / period);
  }
  printf("%s %.6f %ld\n", mode, seconds, periods);
  return 0;
}
