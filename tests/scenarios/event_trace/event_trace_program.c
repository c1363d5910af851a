/* Ground truth by construction for the event trace scenarios (event_trace_test.cpp).
 *
 * The main thread and one worker each run STEPS steps: "step" (value = the step number modulo 4) holds the
 * user event "halo" ("exchange of step %d", begun and ended once per step) and the loop "sweep" with
 * ITERATIONS iteration marks; a step takes about 1 ms (sleeping). The main thread also enters the
 * interval "noise" NOISE times (a name a trace filter may exclude), and, with recording switched off
 * by parperf_control, the interval "hidden" HIDDEN times: it must appear nowhere.
 *
 * Usage: event_trace_program [kill]. With "kill" the program writes its profile (parperf_flush)
 * after half its steps and kills itself with SIGKILL at the end, before any exit handler runs. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parperf/parperf.h"

enum { STEPS = 200, ITERATIONS = 50, NOISE = 100, HIDDEN = 30 };

static parperf_site step_site = PARPERF_SITE_INIT("step", PARPERF_KIND_USER);
static parperf_site sweep_site = PARPERF_SITE_INIT("sweep", PARPERF_KIND_SEQUENTIAL_LOOP);
static parperf_site noise_site = PARPERF_SITE_INIT("noise", PARPERF_KIND_USER);
static parperf_site hidden_site = PARPERF_SITE_INIT("hidden", PARPERF_KIND_USER);
static unsigned halo;
static volatile double sink;

static void pause_us(long us) {
  struct timespec t = {0, us * 1000};
  nanosleep(&t, NULL);
}

static void steps(int kill_half) {
  for (int step = 0; step < STEPS; ++step) {
    parperf_interval_begin(&step_site, step % 4);
    parperf_event_start(halo, step);
    pause_us(500);
    parperf_event_end(halo, step);
    parperf_interval_begin(&sweep_site, 0);
    for (int i = 0; i < ITERATIONS; ++i) {
      parperf_loop_iteration();
      sink = sink + i * 0.5;
    }
    parperf_interval_end(&sweep_site);
    pause_us(500);
    parperf_interval_end(&step_site);
    if (kill_half && step == STEPS / 2) parperf_flush();
  }
}

static void* worker(void* unused) {
  (void)unused;
  steps(0);
  return NULL;
}

int main(int argc, char** argv) {
  const int kill_at_end = argc > 1 && strcmp(argv[1], "kill") == 0;
  halo = parperf_event_create("halo", "exchange of step %d");
  pthread_t thread;
  pthread_create(&thread, NULL, worker, NULL);
  for (int i = 0; i < NOISE; ++i) {
    parperf_interval_begin(&noise_site, 0);
    parperf_interval_end(&noise_site);
  }
  parperf_control(0);
  for (int i = 0; i < HIDDEN; ++i) {
    parperf_interval_begin(&hidden_site, 0);
    parperf_interval_end(&hidden_site);
  }
  parperf_control(1);
  steps(kill_at_end);
  pthread_join(thread, NULL);
  if (kill_at_end) raise(SIGKILL);
  printf("done\n");
  return 0;
}
