/* An OpenMP program built -O2 without frame pointers (gcc: libgomp, clang-16: libomp), for the
 * unwinding of sampled call paths through the OpenMP runtime's thread start and outlined regions.
 *
 * Each of the 2 threads of one parallel region spends 300 ms of its own CPU time in heavy and 100 ms
 * in light (through `through`): heavy has 75 % of the samples in either, and every sample's path goes
 * through the region's outlined function to main (the primary thread) or to the worker's thread
 * start. */
#include <omp.h>
#include <stdio.h>

#include "spin_work.h"

int main(void) {
  double total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  {
    total += heavy(0.300);
    through(0.100);
  }
  printf("%d threads done (%g)\n", 2, total > 0 ? 1.0 : 0.0);
  return 0;
}
