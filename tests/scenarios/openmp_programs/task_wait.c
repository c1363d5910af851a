/* A taskwait that waits for a child task running on another thread (docs/efficiency-model.md, the task
 * edges), 2 threads, under `parperf run --trace`.
 *
 * Usage: task_wait [child_ms=200]
 *
 * In `parallel num_threads(2)`, the thread that runs the `single` creates a task that works child_ms
 * in interval "child" and waits until that task has begun: the other thread, idle at the single's
 * barrier, is the only one that can run it. Then it creates a short task (child_ms / 20 in interval
 * "short", which it runs itself in the taskwait or the other thread cannot) and waits in `taskwait`
 * until the long child ends. So the run's critical path goes through "child" (from the creation, on
 * the other thread, back to the taskwait's end): its share of the path is child / run, and running it
 * twice as fast would gain half of it.
 *
 * Work sleeps. The program prints the child's work and the parallel region's time as it measured
 * them: "task_wait: child C s of region R s". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "parperf/parperf.h"

/* The annotation API from the runtime `parperf run` preloads (nothing of parperf linked in). */
#pragma weak parperf_interval_begin
#pragma weak parperf_interval_end

static parperf_site child_site = PARPERF_SITE_INIT("child", PARPERF_KIND_USER);
static parperf_site short_site = PARPERF_SITE_INIT("short", PARPERF_KIND_USER);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double work_in(parperf_site* site, int ms) {
  if (parperf_interval_begin) parperf_interval_begin(site, 0);
  const double start = now();
  struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&d, &d) != 0) {
  }
  const double worked = now() - start;
  if (parperf_interval_end) parperf_interval_end(site);
  return worked;
}

int main(int argc, char** argv) {
  const int child_ms = argc > 1 ? atoi(argv[1]) : 200;
  if (child_ms < 20) {
    fprintf(stderr, "usage: task_wait [child_ms >= 20]\n");
    return 2;
  }
  double child = 0;
  int started = 0;
  const double begin = now();
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp task shared(child, started)
    {
#pragma omp atomic write
      started = 1;
      child = work_in(&child_site, child_ms);
    }
    for (int seen = 0; !seen;) {
#pragma omp atomic read
      seen = started;
      struct timespec d = {0, 100000L};
      if (!seen) nanosleep(&d, NULL);
    }
#pragma omp task
    work_in(&short_site, child_ms / 20);
#pragma omp taskwait
  }
  fprintf(stderr, "task_wait: child %.6f s of region %.6f s\n", child, now() - begin);
  return 0;
}
