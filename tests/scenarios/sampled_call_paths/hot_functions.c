// A program with known hot functions, for call-path sampling (`parperf run --sample`), unannotated.
//
//   hot_functions [THREADS [SCALE [sleep]]]
//
// Each of THREADS threads (the main thread when 1) spends SCALE x 300 ms of its own CPU time in f
// and SCALE x 100 ms in g, which it reaches through two callers: SCALE x 50 ms through via_a, as
// much through via_b. The work is measured in the thread's CPU time, so the shares hold however busy
// the machine is: f 75 %, g 25 %, via_a and via_b 12.5 % each (inclusive). With "sleep", the main
// thread instead spends 100 ms of CPU in f and then sleeps 200 ms in nap: 1/3 and 2/3 of its
// elapsed time, none of its CPU time in nap.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double scale = 1.0;
static volatile double sink;

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Each function has its loop of its own (not a shared helper, which the samples would name instead),
// with few clock reads among many additions.
#define SPIN(seconds)                                           \
  do {                                                          \
    const double end = cpu_seconds() + (seconds);               \
    while (cpu_seconds() < end)                                 \
      for (int i = 0; i < 100000; ++i) sink = sink + (double)i; \
  } while (0)

__attribute__((noinline)) void f(double seconds) { SPIN(seconds); }
__attribute__((noinline)) void g(double seconds) { SPIN(seconds); }
// The additions after the calls keep them calls (not jumps), so the callers stay on the stack.
__attribute__((noinline)) void via_a(void) {
  g(0.050 * scale);
  sink = sink + 1;
}
__attribute__((noinline)) void via_b(void) {
  g(0.050 * scale);
  sink = sink + 1;
}

__attribute__((noinline)) void nap(double seconds) {
  struct timespec until;
  clock_gettime(CLOCK_MONOTONIC, &until);
  const long long ns = (long long)(seconds * 1e9) + until.tv_nsec;
  until.tv_sec += (time_t)(ns / 1000000000);
  until.tv_nsec = (long)(ns % 1000000000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
  }
  sink = sink + 1;
}

static void* work(void* unused) {
  (void)unused;
  f(0.300 * scale);
  via_a();
  via_b();
  return NULL;
}

int main(int argc, char** argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 1;
  if (argc > 2) scale = atof(argv[2]);
  if (argc > 3 && strcmp(argv[3], "sleep") == 0) {
    f(0.100);
    nap(0.200);
    printf("slept\n");
    return 0;
  }
  if (threads <= 1) {
    work(NULL);
    printf("1 thread done\n");  // work is a call, not a jump: main stays on the stack
    return 0;
  }
  pthread_t ids[64];
  const int n = threads < 64 ? threads : 64;
  for (int i = 0; i < n; ++i) pthread_create(&ids[i], NULL, work, NULL);
  for (int i = 0; i < n; ++i) pthread_join(ids[i], NULL);
  printf("%d threads done\n", n);
  return 0;
}
