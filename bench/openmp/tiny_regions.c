/* The worst case for the OpenMP collector: R empty parallel regions of 2 threads, nothing but
 * libomp's fork and join, so every nanosecond a callback adds shows. bench/openmp/overhead.sh runs
 * it plain and under `parperf run` and divides the difference by the OMPT callbacks libomp delivers
 * per region (callback_counter.c counts them).
 *
 * Usage: parperf-bench-omp-tiny-regions [R=200000]
 * Prints the regions run and the seconds the timed loop took. A few warm-up regions come first, so
 * the workers' creation and the site's first sight stay out of the loop. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { kWarmUp = 1000 };

/* One slot per thread, written in every region, so the region has an observable effect. */
static volatile int sink[2];

static void run_regions(long count) {
  for (long r = 0; r < count; ++r) {
#pragma omp parallel num_threads(2)
    sink[omp_get_thread_num() & 1] = (int)r;
  }
}

int main(int argc, char** argv) {
  const long regions = argc > 1 ? atol(argv[1]) : 200000;
  if (regions < 0) {
    fprintf(stderr, "usage: %s [regions >= 0]\n", argv[0]);
    return 2;
  }
  run_regions(kWarmUp);
  const double start = omp_get_wtime();
  run_regions(regions);
  const double seconds = omp_get_wtime() - start;
  printf("regions: %ld\nseconds: %.9f\n", regions, seconds);
  return 0;
}
