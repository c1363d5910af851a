/* For runtime_flush_young_thread_test: `flushes` times, a new thread that does nothing but enter and
 * leave intervals (its life all probes) is started, and once it has made a few entries, the main
 * thread writes the profile (parperf_flush) while it runs, and keeps a copy of each profile written
 * (<PARPERF_DIR>/flush-<n>/profile.0.ppf) for the test to report. */
#include <parperf/parperf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static parperf_site outer = PARPERF_SITE_INIT("young_outer", PARPERF_KIND_USER);
static parperf_site inner = PARPERF_SITE_INIT("young_inner", PARPERF_KIND_USER);
static atomic_int started, stop;

static void* probes_only(void* arg) {
  (void)arg;
  for (long i = 0; !atomic_load_explicit(&stop, memory_order_relaxed); ++i) {
    parperf_interval_begin(&outer, 0);
    parperf_interval_begin(&inner, 0);
    parperf_interval_end(&inner);
    parperf_interval_end(&outer);
    if (i == 20) atomic_store(&started, 1);
  }
  return NULL;
}

static int copy_file(const char* from, const char* to) {
  FILE* in = fopen(from, "rb");
  FILE* out = in ? fopen(to, "wb") : NULL;
  int ok = in && out;
  char buffer[1 << 16];
  size_t n;
  while (ok && (n = fread(buffer, 1, sizeof buffer, in)) > 0) ok = fwrite(buffer, 1, n, out) == n;
  if (in) fclose(in);
  if (out) ok = fclose(out) == 0 && ok;
  return ok;
}

int main(int argc, char** argv) {
  const int flushes = argc > 1 ? atoi(argv[1]) : 40;
  const char* dir = getenv("PARPERF_DIR");
  if (!dir) return 2;
  for (int n = 0; n < flushes; ++n) {
    pthread_t thread;
    atomic_store(&started, 0);
    atomic_store(&stop, 0);
    if (pthread_create(&thread, NULL, probes_only, NULL) != 0) return 3;
    while (!atomic_load(&started)) {
    }
    parperf_flush();
    atomic_store(&stop, 1);
    pthread_join(thread, NULL);
    char from[4096], copy_dir[4096], to[4200];
    snprintf(from, sizeof from, "%s/profile.0.ppf", dir);
    snprintf(copy_dir, sizeof copy_dir, "%s/flush-%d", dir, n);
    snprintf(to, sizeof to, "%s/profile.0.ppf", copy_dir);
    if (mkdir(copy_dir, 0755) != 0 || !copy_file(from, to)) return 4;
  }
  return 0;
}
