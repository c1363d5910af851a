// The cost of one call-path sample, as the program sees it (bench/sampling/overhead.sh runs it):
// a fixed amount of work done DEPTH calls deep, timed in the thread's own CPU time. Run plain and
// with samples; the CPU time added, divided by the samples taken, is the cost of one: the kernel's
// signal delivery and return, the frame-pointer walk over DEPTH + 3 frames, the table's update.
//
//   sample_cost [DEPTH [ITERATIONS]]   prints "seconds: <CPU seconds of the work>"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

int main(int argc, char** argv) {
  const int depth = argc > 1 ? atoi(argv[1]) : 20;
  const long iterations = argc > 2 ? atol(argv[2]) : 400000000L;
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  nest(depth, iterations);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  printf("seconds: %.9f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9);
  return 0;
}
