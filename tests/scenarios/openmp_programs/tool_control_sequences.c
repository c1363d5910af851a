/* Pauses and resumes through omp_control_tool at every point of a parallel region that has a
 * work-sharing loop inside it (built with clang: gcc's omp.h has no omp_control_tool). Whatever the
 * order of the region's begin and end, its loop and the switches, the profile must be one the report
 * reads, with no interval's time above its parent's (docs/runtime.md, "Recording on and off").
 *
 * Each case is one region of 2 threads; `loop` is an omp for of 2 x 10 ms (sleeping, common/burn.h):
 *   1. begun while recording is on, paused after its loop, ended while off, resumed after it;
 *   2. begun while off, resumed before its loop;
 *   3. paused and resumed between two loops;
 *   4. paused before its loop, ended while off, resumed after it. */
#include <omp.h>
#include <stdio.h>

#include "common/burn.h"

static void loop(void) {
#pragma omp for schedule(static)
  for (int i = 0; i < 2; ++i) sleep_for_ms(10);
}

static void control(omp_control_tool_t command) {
#pragma omp barrier
#pragma omp master
  omp_control_tool(command, 0, NULL);
#pragma omp barrier
}

int main(void) {
  if (omp_get_max_threads() < 1) return 1; /* libomp ignores omp_control_tool until initialised */
#pragma omp parallel num_threads(2)
  {
    loop();
    control(omp_control_tool_pause);
  }
  omp_control_tool(omp_control_tool_start, 0, NULL);

  omp_control_tool(omp_control_tool_pause, 0, NULL);
#pragma omp parallel num_threads(2)
  {
    control(omp_control_tool_start);
    loop();
  }

#pragma omp parallel num_threads(2)
  {
    loop();
    control(omp_control_tool_pause);
    control(omp_control_tool_start);
    loop();
  }

#pragma omp parallel num_threads(2)
  {
    control(omp_control_tool_pause);
    loop();
  }
  omp_control_tool(omp_control_tool_start, 0, NULL);
  printf("done\n");
  return 0;
}
