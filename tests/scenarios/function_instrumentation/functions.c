/* Instrumented through `parperf cc --instrument=functions` (function_instrumentation_test.cpp):
 * main -> compute, which spins for 100 ms, escapes from a recursion by longjmp, then calls
 * helper() and excluded() 1000 times each. The filter (exclude.filter) excludes excluded(): it must
 * never appear; helper must appear under compute with exactly 1000 entries, after the longjmp left
 * four calls of deep() without their exits. */
#include <setjmp.h>
#include <stdio.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static jmp_buf escape;
static volatile long sink;

/* Not instrumented: gcc keeps the hooks of inlined functions, and a million measured calls inside
 * a spin bounded by the clock would leave compute less of its own time once the report takes their
 * measured cost out. */
__attribute__((no_instrument_function)) static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

NOINLINE int helper(int i) { return i * 3 + 1; }

NOINLINE int excluded(int i) { return i ^ 5; }

NOINLINE void deep(int n) {
  if (n == 0) longjmp(escape, 1);
  deep(n - 1);
  sink += n; /* not a tail call */
}

NOINLINE void jump_out(void) {
  if (!setjmp(escape)) deep(3);
}

NOINLINE long compute(void) { /* SITE:compute */
  const double start = seconds_now();
  long sum = 0;
  while (seconds_now() - start < 0.1) sum += 1;
  jump_out();
  for (int i = 0; i < 1000; ++i) sum += helper(i) + excluded(i);
  return sum;
}

int main(void) {
  printf("sum %ld\n", compute());
  return 0;
}
