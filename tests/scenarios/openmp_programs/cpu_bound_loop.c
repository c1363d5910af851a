/* A balanced parallel loop whose work is CPU time: 2 threads, schedule(static), 8 iterations of
 * 12 ms of the thread's own CPU time each (spinning on CLOCK_THREAD_CPUTIME_ID), repeated R times.
 * Each thread has 4 x 12 = 48 ms of work per repetition, whatever the scheduler does.
 *
 * Usage: cpu_bound_loop [R=5]
 *
 * Run with both threads on one core (the preemption test pins the process to CPU 0), the threads
 * take turns on it: each is off the CPU about half the time, the work stays balanced (max/mean of
 * the threads' work near 1), and whatever is lost at the loop's implicit barrier is lost to
 * preemption, not to unbalanced work. Prints the number of iterations run. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kIterations = 8 };

static long long thread_cpu_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static void burn_cpu_ms(long long ms) {
  const long long end = thread_cpu_ns() + ms * 1000000LL;
  while (thread_cpu_ns() < end) {
  }
}

/* Not inlined: the region's return address then maps to the pragma's line, not to the caller's. */
__attribute__((noinline)) static long cpu_loop(void) {
  long done = 0;
#pragma omp parallel for schedule(static) num_threads(2) reduction(+ : done) /* SITE:cpu_loop */
  for (int i = 0; i < kIterations; ++i) {
    burn_cpu_ms(12);
    done += 1;
  }
  return done;
}

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? atoi(argv[1]) : 5;
  long done = 0;
  for (int r = 0; r < repetitions; ++r) done += cpu_loop();
  printf("%ld iterations\n", done);
  return 0;
}
