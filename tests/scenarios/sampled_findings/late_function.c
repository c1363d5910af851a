/* A parallel region whose thread 0 is late at the region's end because of one function, for the
 * findings' sampled causes (`parperf run --sample`).
 *
 *   late_function [balanced]
 *
 * Three threads repeat a parallel region 4 times. In each, every thread runs g for 50 ms of its own
 * CPU time (the common work); thread 0 then runs f for 200 ms of CPU time, four times the others'
 * work, while threads 1 and 2 wait at the implicit barrier that ends the region. Of thread 0's
 * samples in the region, f has 200 / 250 = 80 %, g 20 %; the waiting threads never run f. The work is
 * measured in the thread's CPU time, so the shares hold however busy the machine is. With
 * "balanced", thread 0 skips f: all threads do the same work and no function is to blame. */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cpu_work.h"

enum { kRepetitions = 4, kThreads = 3 };

int main(int argc, char** argv) {
  const int balanced = argc > 1 && strcmp(argv[1], "balanced") == 0;
  double total = 0;
  for (int r = 0; r < kRepetitions; ++r) {
#pragma omp parallel num_threads(kThreads) reduction(+ : total) /* SITE:region */
    {
      total += g(0.050);
      if (!balanced && omp_get_thread_num() == 0) total += f(0.200);
    }
  }
  printf("done %d\n", total > 0);
  return 0;
}
