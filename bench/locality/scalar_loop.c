/* The instrumented program of bench/locality/overhead.sh: a scalar loop of a few floating-point
 * operations per element over arrays of 2^20 doubles (16 MiB in all, beyond the caches), repeated.
 * Every iteration makes two loads and one store, so the collector's per-access cost shows. */
#include <stdio.h>
#include <stdlib.h>

enum { N = 1 << 20 };
static double x[N], y[N];

__attribute__((noinline)) static void axpy_like(double a) {
  for (int i = 0; i < N; ++i) y[i] = a * x[i] + y[i] * 0.5 + 1.0 / (1.0 + x[i]);
}

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? atoi(argv[1]) : 20;
  for (int i = 0; i < N; ++i) x[i] = i % 13;
  for (int r = 0; r < repeats; ++r) axpy_like(0.5 + r);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += y[i];
  printf("%.3f\n", sum);
  return 0;
}
