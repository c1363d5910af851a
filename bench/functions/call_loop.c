/* The program bench/functions/function_cost.sh builds three ways (plain, instrumented, instrumented
 * with leaf() excluded by a filter): CALLS calls of a function that does almost nothing, timed
 * inside the program, so that the command's start-up and the profile's writing are not counted.
 * Prints the nanoseconds one call took. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned sink;

__attribute__((noinline)) void leaf(unsigned i) { sink += i; }

/* Not instrumented: the clock read must not count as a call. */
__attribute__((no_instrument_function)) static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  const unsigned calls = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000000u;
  for (unsigned i = 0; i < 100000; ++i) leaf(i); /* warm-up: the first call takes the cold path */
  const double start = seconds_now();
  for (unsigned i = 0; i < calls; ++i) leaf(i);
  const double elapsed = seconds_now() - start;
  printf("%.2f\n", 1e9 * elapsed / calls);
  return 0;
}
