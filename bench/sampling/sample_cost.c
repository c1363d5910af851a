// The cost of one call-path sample, as the program sees it (bench/sampling/overhead.sh runs it):
// a fixed amount of work done DEPTH calls deep, timed in the thread's own CPU time. Run plain and
// with samples; the CPU time added, divided by the samples taken, is the cost of one: the kernel's
// signal delivery and return, the frame-pointer walk over DEPTH + 3 frames, the table's update.
//
// On a virtual machine the kernel's part dominates: "empty-handler" as the third argument makes the
// program deliver itself the same signals at 10 kHz of elapsed time (a timer of its own, a handler
// that only counts), so that the script can take the kernel's part out.
//
//   sample_cost [DEPTH [ITERATIONS [empty-handler]]]
//   prints "seconds: <CPU seconds of the work>" (and "signals: N" with empty-handler)
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) static void work(long iterations) {
  for (long i = 0; i < iterations; ++i) sink = sink + (double)i;
}

__attribute__((noinline)) static void nest(int depth, long iterations) {
  if (depth <= 0)
    work(iterations);
  else
    nest(depth - 1, iterations);
  sink = sink + 1;  // a call, not a jump: every level stays on the stack
}

static volatile long signals;

static void count_signal(int signal, siginfo_t* info, void* context) {
  (void)signal, (void)info, (void)context;
  signals = signals + 1;
}

// A 10 kHz elapsed-time timer sending this thread SIGRTMIN+3, as the sampler's does.
static void deliver_empty_signals(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = count_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGRTMIN + 3, &action, NULL);
  struct sigevent event;
  memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGRTMIN + 3;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  timer_t timer;
  timer_create(CLOCK_MONOTONIC, &event, &timer);
  const struct itimerspec period = {{0, 100000}, {0, 100000}};
  timer_settime(timer, 0, &period, NULL);
}

int main(int argc, char** argv) {
  const int depth = argc > 1 ? atoi(argv[1]) : 20;
  const long iterations = argc > 2 ? atol(argv[2]) : 400000000L;
  const int empty_handler = argc > 3 && strcmp(argv[3], "empty-handler") == 0;
  if (empty_handler) deliver_empty_signals();
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  nest(depth, iterations);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  printf("seconds: %.9f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9);
  if (empty_handler) printf("signals: %ld\n", (long)signals);
  return 0;
}
