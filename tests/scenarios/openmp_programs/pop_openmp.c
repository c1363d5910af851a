/* The OpenMP cases of the POP factors (docs/efficiency-model.md), 2 threads, under
 * `parperf run --trace`.
 *
 * Usage: pop_openmp ordered|tasks|phases [unit_ms=20]
 *
 *   ordered  a loop of 8 iterations, schedule(static,1), whose whole body is an `ordered` block of one
 *            unit: the iterations run one after the other, alternating threads. Each thread works 4
 *            units of a run of 8: serialisation efficiency 1/2, load balance 1.
 *   tasks    one thread creates 4 tasks of 5, 1, 1 and 1 units; the 2 threads run them as they can (the
 *            5-unit task on one, the others on either): load balance mean/max of what each thread ran
 *            (4/5 when one runs the long task and the other the three short ones).
 *
 *   phases   two phases between parperf_control switches: in the first, thread t works 1 + 2t units
 *            in a parallel region (load balance 2/3); then recording off for 2 units of serial sleep;
 *            in the second, the `ordered` chain (serialisation 1/2, load balance 1).
 *
 * Work sleeps. Each thread prints the work it really did: "pop_openmp: thread T work W s", or for
 * `phases` per phase: "pop_openmp: thread T phase P did W s". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The annotation API's switch, from the runtime `parperf run` preloads (nothing of parperf linked in). */
extern void parperf_control(int on) __attribute__((weak));

static double work_ms(int ms) {
  const double start = now();
  struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&d, &d) != 0) {
  }
  return now() - start;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const int unit = argc > 2 ? atoi(argv[2]) : 20;
  if ((strcmp(mode, "ordered") && strcmp(mode, "tasks") && strcmp(mode, "phases")) || unit < 0) {
    fprintf(stderr, "usage: pop_openmp ordered|tasks|phases [unit_ms]\n");
    return 2;
  }
  double worked[2] = {0, 0};
  if (!strcmp(mode, "phases")) {
    double phase_work[2][2] = {{0, 0}, {0, 0}};
#pragma omp parallel num_threads(2)
    phase_work[0][omp_get_thread_num()] += work_ms((1 + 2 * omp_get_thread_num()) * unit);
    if (parperf_control) parperf_control(0);
    work_ms(2 * unit);
    if (parperf_control) parperf_control(1);
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
    for (int i = 0; i < 8; ++i) {
#pragma omp ordered
      phase_work[1][omp_get_thread_num()] += work_ms(unit);
    }
    for (int p = 0; p < 2; ++p)
      for (int t = 0; t < 2; ++t)
        fprintf(stderr, "pop_openmp: thread %d phase %d did %.6f s\n", t, p + 1, phase_work[p][t]);
    return 0;
  }
  if (!strcmp(mode, "ordered")) {
#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
    for (int i = 0; i < 8; ++i) {
#pragma omp ordered
      worked[omp_get_thread_num()] += work_ms(unit);
    }
  } else {
#pragma omp parallel num_threads(2)
#pragma omp single
    {
      const int units[4] = {5, 1, 1, 1};
      for (int k = 0; k < 4; ++k) {
#pragma omp task firstprivate(k)
        {
          const double w = work_ms(units[k] * unit);
#pragma omp atomic
          worked[omp_get_thread_num()] += w;
        }
      }
    }
  }
  for (int t = 0; t < 2; ++t) fprintf(stderr, "pop_openmp: thread %d work %.6f s\n", t, worked[t]);
  return 0;
}
