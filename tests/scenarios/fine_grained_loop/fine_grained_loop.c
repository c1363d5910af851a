/* A loop of very short iterations, timed by the program itself and by parperf.
 *
 * Each iteration spins for 300 ns of its own clock. Three rounds run the loop plain (no probe) and
 * time it as a whole: the fastest round's time per iteration is what an iteration costs. Three more
 * rounds run it annotated: a sequential loop interval (value = round), an iteration mark and a
 * nested interval "body" around the spin in every iteration, so each iteration carries a mark and
 * an interval entry of parperf's, about a tenth of its time. Without probe compensation parperf
 * would report the iterations that much slower than they run.
 *
 * Prints "plain_ns_per_iteration <ns>". Usage: fine_grained_loop [iterations (100000)] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <parperf/parperf.h>

enum { kRounds = 3, kSpinNs = 300 };

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void spin(void) {
  const long long start = now_ns();
  while (now_ns() - start < kSpinNs) {
  }
}

static parperf_site loop_site = PARPERF_SITE_INIT("fine loop", PARPERF_KIND_SEQUENTIAL_LOOP);
static parperf_site body_site = PARPERF_SITE_INIT("body", PARPERF_KIND_USER);

int main(int argc, char** argv) {
  const long iterations = argc > 1 ? atol(argv[1]) : 100000;
  double best = 1e30;
  for (int round = 0; round < kRounds; ++round) {
    const long long start = now_ns();
    for (long i = 0; i < iterations; ++i) spin();
    const double per_iteration = (double)(now_ns() - start) / (double)iterations;
    if (per_iteration < best) best = per_iteration;
  }
  for (int round = 0; round < kRounds; ++round) {
    parperf_interval_begin(&loop_site, round);
    for (long i = 0; i < iterations; ++i) {
      parperf_loop_iteration();
      parperf_interval_begin(&body_site, 0);
      spin();
      parperf_interval_end(&body_site);
    }
    parperf_interval_end(&loop_site);
  }
  printf("plain_ns_per_iteration %.1f\n", best);
  return 0;
}
