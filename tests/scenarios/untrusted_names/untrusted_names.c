// Names a program may give its intervals and events that would act on whoever reads parperf's
// output: terminal controls (ESC sequences, BEL, a carriage return that overwrites the line, a
// newline that forges a line), bytes that are not UTF-8, and spreadsheet formulas. Each interval
// spends 30 ms of its thread's CPU time, however busy the machine, so that `--sample=500` (a 2 ms
// period) puts about 15 samples, and so folded stacks, under every name.
#include <stdio.h>

#include "common/burn.h"
#include "parperf/parperf.h"

static const char* const kNames[] = {
    "\x1b]0;owned\x07\x1b[2Jcleared",      // sets the terminal's title, rings, clears the screen
    "over\rwritten",                       // a carriage return: "written" would hide "over"
    "two\nlines",                          // a newline: a forged line in --functions and --folded
    "bad\xff\xfe utf8",                    // not UTF-8: JSON and protobuf readers refuse it
    "=HYPERLINK(\"http://example.com\")",  // a formula in a spreadsheet's cell
};

static double spin_cpu_ms(int ms) {
  const double end = scenario_seconds(CLOCK_THREAD_CPUTIME_ID) + ms * 1e-3;
  double x = 1.0;
  while (scenario_seconds(CLOCK_THREAD_CPUTIME_ID) < end)
    for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

int main(void) {
  const unsigned event = parperf_event_create("-2+3", "@SUM(%d)");
  double sink = 0;
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    parperf_interval_begin_named(kNames[i], PARPERF_KIND_USER, __FILE__, __LINE__, 0);
    parperf_event_atomic(event, (int)i);
    sink += spin_cpu_ms(30);
    parperf_interval_end_named(kNames[i]);
  }
  printf("%g\n", sink > 0 ? 1.0 : 0.0);
  return 0;
}
