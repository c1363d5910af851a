/* Which OpenMP runtime the program really runs on, for tests: with OMP_PROGRAMS_REPORT_RUNTIME=1 the
 * program prints on stderr (its stdout, the checksum, stays the same) the library that defines
 *   openmp runtime: <file>   the omp_* API (omp_get_thread_num), what every build calls
 *   gomp entry points: <file>  GOMP_parallel, where gcc's code enters the runtime (absent if none)
 * Both are looked up the way the program's own calls are bound, in the global scope: under
 * `parperf run` a gcc build must name libomp twice although libgomp is mapped as well.
 * The including file defines _GNU_SOURCE before any #include (for RTLD_DEFAULT and dladdr). */
#ifndef PARPERF_OPENMP_RUNTIME_REPORT_H
#define PARPERF_OPENMP_RUNTIME_REPORT_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline const char* runtime_report_library_of(const char* symbol) {
  void* address = dlsym(RTLD_DEFAULT, symbol);
  Dl_info info;
  if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL) return NULL;
  return info.dli_fname;
}

static inline void report_openmp_runtime(void) {
  const char* wanted = getenv("OMP_PROGRAMS_REPORT_RUNTIME");
  if (wanted == NULL || strcmp(wanted, "1") != 0) return;
  const char* api = runtime_report_library_of("omp_get_thread_num");
  const char* gomp = runtime_report_library_of("GOMP_parallel");
  fprintf(stderr, "openmp runtime: %s\n", api != NULL ? api : "(none)");
  if (gomp != NULL) fprintf(stderr, "gomp entry points: %s\n", gomp);
}

#endif /* PARPERF_OPENMP_RUNTIME_REPORT_H */
