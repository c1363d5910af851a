/* A parallel loop whose iterations grow: iteration i (0..15) works (i+1) ms, 136 ms in all, on 2
 * threads, repeated R times. The work is sleeping (common/burn.h): the threads need no core, so the
 * lengths hold on a machine busy with other processes.
 *
 * Usage: triangular_loop [R=3] [static|dynamic]
 *
 * static (schedule(static)): thread 0 gets iterations 0..7 = 1+...+8 = 36 ms, thread 1 gets 8..15 =
 *   9+...+16 = 100 ms. Per repetition the loop takes 100 ms, and thread 0 waits 64 ms at the loop's
 *   implicit barrier: load imbalance (and idle time) 64 ms per repetition, R x 64 ms in all;
 *   parallelization efficiency 136 / 200 = 68 %.
 * dynamic (schedule(dynamic, 1)): a thread takes the next iteration when it is free. Without
 *   overheads: 72 ms per repetition when the threads alternate (one gets 0,2,..,14 = 64 ms, the other
 *   1,3,..,15 = 72 ms), the early thread waiting at most 16 ms (the last iteration), 8 ms typically;
 *   efficiency about 136 / 144 = 94 %.
 *
 * Prints the checksum R x (1^2 + ... + 16^2) = R x 1496, the same whatever the schedule, and on stderr
 * how late its sleeps ended in all (common/burn.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/burn.h"
#include "runtime_report.h"

enum { kIterations = 16 };

/* Not inlined: the region's return address then maps to the pragma's line, not to the caller's. */
__attribute__((noinline)) static long static_loop(void) {
  long checksum = 0;
#pragma omp parallel for schedule(static) num_threads(2) reduction(+ : checksum) /* SITE:static_loop */
  for (int i = 0; i < kIterations; ++i) {
    sleep_for_ms(i + 1);
    checksum += (long)(i + 1) * (i + 1);
  }
  return checksum;
}

__attribute__((noinline)) static long dynamic_loop(void) {
  long checksum = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(2) reduction(+ : checksum) /* SITE:dynamic_loop */
  for (int i = 0; i < kIterations; ++i) {
    sleep_for_ms(i + 1);
    checksum += (long)(i + 1) * (i + 1);
  }
  return checksum;
}

int main(int argc, char** argv) {
  report_openmp_runtime();
  const int repetitions = argc > 1 ? atoi(argv[1]) : 3;
  const int dynamic = argc > 2 && strcmp(argv[2], "dynamic") == 0;
  long checksum = 0;
  for (int r = 0; r < repetitions; ++r) checksum += dynamic ? dynamic_loop() : static_loop();
  printf("triangular_loop %s: checksum %ld\n", dynamic ? "dynamic" : "static", checksum);
  print_sleep_overshoot();
  return 0;
}
