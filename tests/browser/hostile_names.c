/* A program whose names try to break out of the HTML report: an interval, a nested interval, a
 * source file and a user event's text that are markup or script. The report must show them as
 * text (html_report_browser test). Two threads, so the page has per-processor bars; thread 1 works
 * three times as long in "<img src=x onerror=alert(1)>" as thread 0, so the bars differ by design. */
#include <parperf/parperf.h>
#include <pthread.h>
#include <time.h>

static void spin_ms(int ms) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do clock_gettime(CLOCK_MONOTONIC, &now);
  while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < ms);
}

static void* worker(void* arg) {
  const int id = (int)(long)arg;
  const unsigned event = parperf_event_create("</script><script>alert(2)</script>", "%s");
  parperf_interval_begin_named("<img src=x onerror=alert(1)>", PARPERF_KIND_USER, "<svg onload=alert(3)>.c",
                               10, 0);
  parperf_event_start(event, "<b onmouseover=alert(4)>bold</b>");
  spin_ms(id == 0 ? 20 : 60);
  parperf_event_end(event, "\"'><iframe src=javascript:alert(5)>");
  parperf_interval_begin_named("inner \"quoted\" & 'apostrophe'", PARPERF_KIND_USER, "plain.c", 20, 0);
  spin_ms(20);
  parperf_interval_end_named("inner \"quoted\" & 'apostrophe'");
  parperf_interval_end_named("<img src=x onerror=alert(1)>");
  return 0;
}

int main(void) {
  pthread_t threads[2];
  for (long i = 0; i < 2; ++i) pthread_create(&threads[i], 0, worker, (void*)i);
  for (int i = 0; i < 2; ++i) pthread_join(threads[i], 0);
  return 0;
}
