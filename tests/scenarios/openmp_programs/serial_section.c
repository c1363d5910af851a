/* Parallel, serial, parallel: the serial part in the middle is insufficient parallelism. The work is
 * sleeping (common/burn.h), so its lengths hold on a machine busy with other processes.
 *
 * Usage: serial_section [R=1]
 *
 * Each repetition:
 *   1. a parallel region of 2 threads with a balanced loop: 2 iterations of 50 ms, one per thread;
 *   2. 100 ms on the master thread alone, outside any parallel region (the other thread waits for
 *      the next region: libomp spins on it for a while, libgomp sleeps);
 *   3. the same parallel region as 1.
 * Per repetition: about 200 ms; productive 2 x 50 + 100 + 2 x 50 = 300 ms of 2 x 200 = 400 ms; the
 * serial part leaves (threads - 1) x 100 ms = 100 ms to insufficient parallelism; no imbalance inside
 * the regions. Efficiency 75 %.
 *
 * Prints the checksum R x (3 + 100 + 3) = R x 106, and on stderr how late its sleeps ended in all
 * (common/burn.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"
#include "runtime_report.h"

static long balanced_region(void) {
  long checksum = 0;
#pragma omp parallel num_threads(2) reduction(+ : checksum) /* SITE:parallel_region */
  {
#pragma omp for schedule(static) /* SITE:balanced_loop */
    for (int i = 0; i < 2; ++i) {
      sleep_for_ms(50);
      checksum += i + 1;
    }
  }
  return checksum;
}

static long serial_part(void) {
  sleep_for_ms(100); /* SITE:serial */
  return 100;
}

int main(int argc, char** argv) {
  report_openmp_runtime();
  const int repetitions = argc > 1 ? atoi(argv[1]) : 1;
  long checksum = 0;
  for (int r = 0; r < repetitions; ++r) {
    checksum += balanced_region();
    checksum += serial_part();
    checksum += balanced_region();
  }
  printf("serial_section: checksum %ld\n", checksum);
  print_sleep_overshoot();
  return 0;
}
