/* Ends while the runtime is busy or limited, to check that the final profile is complete and honest:
 * - `flush-race`: 64 threads each complete 200 entries of "work", then keep calling parperf_flush()
 *   until the process ends; main exits (exit(0)) as soon as every thread has completed its entries,
 *   so the exit meets flushes in progress. The final profile must win: end reason exit and every
 *   thread's 200 entries.
 * - `many-threads N`: starts N threads one after the other, each completing one "work" entry; with
 *   PARPERF_MAX_THREADS below N + 1 the later ones are not measured, which the report must say. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parperf/parperf.h"

enum { kThreads = 64, kEntries = 200 };

static parperf_site work_site = PARPERF_SITE_INIT("work", PARPERF_KIND_USER);
static atomic_int completed;

static void one_entry(void) {
  parperf_interval_begin(&work_site, 0);
  volatile unsigned spins = 0;
  for (int i = 0; i < 2000; ++i) ++spins;
  parperf_interval_end(&work_site);
}

static void* work_then_flush(void* unused) {
  (void)unused;
  for (int i = 0; i < kEntries; ++i) {
    one_entry();
    if (i % 20 == 0) parperf_flush();
  }
  atomic_fetch_add(&completed, 1);
  for (;;) parperf_flush(); /* until exit() ends the process */
  return NULL;
}

static void* one_entry_thread(void* unused) {
  (void)unused;
  one_entry();
  return NULL;
}

int main(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "flush-race") == 0) {
    pthread_t threads[kThreads];
    for (int i = 0; i < kThreads; ++i) pthread_create(&threads[i], NULL, work_then_flush, NULL);
    while (atomic_load(&completed) < kThreads) {
      struct timespec pause = {0, 1000000};
      nanosleep(&pause, NULL);
    }
    exit(0);
  }
  if (argc >= 3 && strcmp(argv[1], "many-threads") == 0) {
    const int count = atoi(argv[2]);
    for (int i = 0; i < count; ++i) {
      pthread_t thread;
      if (pthread_create(&thread, NULL, one_entry_thread, NULL) != 0) return 3;
      pthread_join(thread, NULL);
    }
    return 0;
  }
  fprintf(stderr, "usage: final_profile_program flush-race | many-threads N\n");
  return 2;
}
