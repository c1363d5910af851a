/* 1 000 threads, each one processor of the report: the HTML page must group their per-processor
 * bars rather than draw a wall of them (html_report_browser test). Thread i works (i % 10) x 0.2 ms
 * in the interval "work", so the groups differ. */
#include <parperf/parperf.h>
#include <pthread.h>
#include <time.h>

enum { kThreads = 1000 };

static void spin_us(long us) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do clock_gettime(CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000000L + (now.tv_nsec - start.tv_nsec) / 1000 < us);
}

static void* worker(void* arg) {
  const long id = (long)arg;
  parperf_interval_begin_named("work", PARPERF_KIND_USER, "many_threads.c", 18, 0);
  spin_us((id % 10) * 200);
  parperf_interval_end_named("work");
  return 0;
}

int main(void) {
  static pthread_t threads[kThreads];
  int started = 0;
  for (long i = 0; i < kThreads; ++i)
    if (pthread_create(&threads[started], 0, worker, (void*)i) == 0) ++started;
  for (int i = 0; i < started; ++i) pthread_join(threads[i], 0);
  return started == kThreads ? 0 : 1;
}
