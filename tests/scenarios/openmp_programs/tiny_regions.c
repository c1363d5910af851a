/* R empty parallel regions of 2 threads: nothing but the runtime's fork and join, to measure what a
 * parallel region costs with and without parperf (tests and benchmarks). Each region reads one
 * volatile variable, or gcc would remove the region altogether (and the program would not even link
 * libgomp).
 *
 * Usage: tiny_regions [R=1000]
 *
 * Expected: R regions, each with 2 threads and no work; the time per region is the OpenMP runtime's
 * (a few microseconds) plus whatever measuring adds. Prints R. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "runtime_report.h"

static volatile int keep;

int main(int argc, char** argv) {
  report_openmp_runtime();
  const int repetitions = argc > 1 ? atoi(argv[1]) : 1000;
  for (int r = 0; r < repetitions; ++r) {
#pragma omp parallel num_threads(2) /* SITE:tiny_region */
    { (void)keep; }
  }
  printf("tiny_regions: %d\n", repetitions);
  return 0;
}
