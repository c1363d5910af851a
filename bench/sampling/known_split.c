// Programs with a known split of their CPU time, for the accuracy of sampled shares against the
// truth and against perf (bench/sampling/accuracy.sh runs them). Built -O2 without frame pointers.
//
//   known_split alternate PERIOD_MS ROUNDS   heavy spins 3 x PERIOD_MS, light PERIOD_MS of the thread's
//                                            CPU time, alternately, ROUNDS times: a period of 4 ms
//                                            is the scheduler tick's at 250 Hz (aliasing with it)
//   known_split deep DEPTH ROUNDS            the same with 8 ms under a call chain DEPTH deep
//
// Prints "true heavy share: S", the split measured by the thread's own CPU clock around each call.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile double sink;

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// Each its own loop (not a shared helper, which the samples would name instead); returns the CPU
// time it spent, measured around its whole call.
__attribute__((noinline)) double heavy(double seconds) {
  const double start = cpu_seconds(), end = start + seconds;
  double now;
  while ((now = cpu_seconds()) < end)
    for (int i = 0; i < 5000; ++i) sink = sink + (double)i;
  return now - start;
}

__attribute__((noinline)) double light(double seconds) {
  const double start = cpu_seconds(), end = start + seconds;
  double now;
  while ((now = cpu_seconds()) < end)
    for (int i = 0; i < 5000; ++i) sink = sink * 0.5 + (double)i;
  return now - start;
}

static double heavy_total, light_total;

__attribute__((noinline)) void chain(int depth, double period) {
  if (depth > 0) {
    chain(depth - 1, period);
    sink = sink + 1;  // keeps the recursion a call, not a jump
    return;
  }
  heavy_total += heavy(3 * period);
  light_total += light(period);
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: known_split alternate PERIOD_MS ROUNDS | deep DEPTH ROUNDS\n");
    return 2;
  }
  const int rounds = atoi(argv[3]);
  const int deep = strcmp(argv[1], "deep") == 0;
  const double period = deep ? 0.008 : atof(argv[2]) * 1e-3;
  const int depth = deep ? atoi(argv[2]) : 0;
  for (int r = 0; r < rounds; ++r) chain(depth, period);
  printf("true heavy share: %.4f\n", heavy_total / (heavy_total + light_total));
  return 0;
}
