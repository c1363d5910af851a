/* A program whose scaling is known by construction: Amdahl's law with serial fraction
 * f = S / (S + W).
 *
 * It sleeps S ms on the master thread alone (the serial part), then shares W ms of work among the
 * threads: a parallel loop of 16 iterations of W/16 ms each, schedule(static). With p threads, p a
 * divisor of 16, each thread sleeps 16/p iterations, so the program takes T(p) = S + W/p (plus the
 * time a thread waits for a core when it wakes, small next to a millisecond). Sleeping, not
 * spinning, so that 16 threads on 2 cores run as they would on 16: parperf measures wall-clock
 * time, and a sleeping thread is as busy, for the characteristics, as a computing one.
 *
 * Usage: omp_serial_fraction [S_ms [W_ms]]   (default 150 and 1200: f = 150/1350 = 0.111) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kIterations = 16 };

static void sleep_ms(double ms) {
  struct timespec pause = {(time_t)(ms / 1000), (long)((ms - 1000 * (double)(time_t)(ms / 1000)) * 1e6)};
  while (nanosleep(&pause, &pause) == -1 && errno == EINTR) {
  }
}

int main(int argc, char** argv) {
  const double serial_ms = argc > 1 ? atof(argv[1]) : 150;
  const double work_ms = argc > 2 ? atof(argv[2]) : 1200;
  if (serial_ms < 0 || work_ms < 0) {
    fprintf(stderr, "usage: omp_serial_fraction [S_ms [W_ms]]\n");
    return 2;
  }
  sleep_ms(serial_ms);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < kIterations; ++i) sleep_ms(work_ms / kIterations);
  printf("serial %.0f ms, parallel work %.0f ms\n", serial_ms, work_ms);
  return 0;
}
