/* A phase delimited by omp_control_tool, the way programs written for other OpenMP tools measure a
 * part of a run (built with clang: gcc's omp.h has no omp_control_tool).
 *
 * Usage: tool_control_phase [unit_ms=100]
 *
 * omp_control_tool_pause first thing in main (after omp_get_max_threads: libomp ignores the call
 * until it has initialised itself): nothing before the phase is measured (a parallel region
 * of 2 threads and 200 ms of serial code). The phase, between omp_control_tool_start and
 * omp_control_tool_pause: a parallel region of 2 threads (site phase_region) in which thread t works
 * (1 + 2t) x unit (sleeping, common/burn.h). After it, not measured: 200 ms of serial code, an
 * omp_control_tool_flush, omp_control_tool_end, then an omp_control_tool_start that must change
 * nothing (end is for good) and another imbalanced region.
 *
 * Expected, for the `program` interval (which then holds the phase alone): 2 threads, execution time
 * 3 x unit (thread 0 waits 2 x unit at the region's join barrier: desync), productive time 4 x unit,
 * efficiency 4/6 = 0.667; the phase_region interval is the only parallel region in the report, with
 * one entry per thread. Not measured: the 400 ms of serial code (insufficient parallelism, were it
 * counted, would push the efficiency below 0.4) and the other regions.
 *
 * Prints the results of the control calls: "control: start S pause P flush F end E" (0 each under a
 * tool that handles them, omp_control_tool_success; -2, omp_control_tool_notool, without a tool),
 * and on stderr how late its sleeps woke up in all (common/burn.h). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/burn.h"

static void imbalanced_region(int unit) {
#pragma omp parallel num_threads(2)
  sleep_for_ms((1 + 2 * omp_get_thread_num()) * unit);
}

int main(int argc, char** argv) {
  // libomp answers omp_control_tool with omp_control_tool_notool until it has initialised itself,
  // which the first parallel region or a query like this one does.
  if (omp_get_max_threads() < 1) return 1;
  const int pause = omp_control_tool(omp_control_tool_pause, 0, NULL);
  const int unit = argc > 1 ? atoi(argv[1]) : 100;
  if (unit < 0) {
    fprintf(stderr, "usage: tool_control_phase [unit_ms >= 0]\n");
    return 2;
  }
#pragma omp parallel num_threads(2)
  sleep_for_ms(unit / 2);
  sleep_for_ms(200);

  const int start = omp_control_tool(omp_control_tool_start, 0, NULL);
#pragma omp parallel num_threads(2) /* SITE:phase_region */
  sleep_for_ms((1 + 2 * omp_get_thread_num()) * unit);
  omp_control_tool(omp_control_tool_pause, 0, NULL);

  sleep_for_ms(200);
  const int flush = omp_control_tool(omp_control_tool_flush, 0, NULL);
  const int end = omp_control_tool(omp_control_tool_end, 0, NULL);
  omp_control_tool(omp_control_tool_start, 0, NULL);
  imbalanced_region(unit);
  printf("control: start %d pause %d flush %d end %d\n", start, pause, flush, end);
  print_sleep_overshoot();
  return 0;
}
