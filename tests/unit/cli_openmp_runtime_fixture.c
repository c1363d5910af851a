/* The programs whose OpenMP runtime cli_openmp_runtime_test detects, one per FIXTURE_* macro (see
 * tests/unit/CMakeLists.txt). Only how they are linked matters: the test reads them, never runs them. */
#include <stdio.h>

#if defined(FIXTURE_OPENMP_LIBRARY)
/* A shared library that uses OpenMP (so links libgomp), for a program that does not. */
__attribute__((visibility("default"))) int fixture_parallel_sum(int n) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += i;
  return sum;
}

#elif defined(FIXTURE_USES_LIBRARY)
int fixture_parallel_sum(int n);
int main(void) {
  printf("%d\n", fixture_parallel_sum(10));
  return 0;
}

#elif defined(FIXTURE_OPENMP)
#include <omp.h>
int main(void) {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
  }
  printf("%d\n", threads > 0);
  return 0;
}

#elif defined(FIXTURE_LIBOMP_API)
/* Linked against libomp.so.5 directly, as clang -fopenmp links it. */
int omp_get_max_threads(void);
int main(void) {
  printf("%d\n", omp_get_max_threads() > 0);
  return 0;
}

#else
int main(void) {
  puts("plain");
  return 0;
}
#endif
