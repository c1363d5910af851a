/* A time-stepping OpenMP program in the manner of hydrodynamics proxy applications: each step
 * allocates temporaries of 0.3 to 3 MB in serial code, fills them in parallel loops (each loop a
 * construct of its own, first met in the middle of the first step) and frees them; the other
 * threads of the team also allocate a scratch array of their own inside each parallel region. glibc serves
 * the serial temporaries from the top of the heap and gives the pages back (trims) when they are freed, so
 * the program touches fresh pages every step: its minor page faults grow with the steps. That
 * behaviour is the program's own, and a tool must leave it alone.
 *
 * `step_temporaries STEPS` prints "faults <minor page faults> cpu <user+sys seconds> sum <checksum>". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { kTemporaries = 6 };

/* One construct per temporary (fill_0 ... fill_5): new sites appear while the temporaries are
 * live. The team's other threads allocate a scratch array of their own in each region. */
#define DEFINE_FILL(K)                                                                       \
  static double fill_##K(double* a, size_t n) {                                              \
    double sum = 0;                                                                          \
    _Pragma("omp parallel reduction(+ : sum)") {                                             \
      static const double kZeros[1024];                                                      \
      const double* scratch = kZeros;                                                        \
      double* own = omp_get_thread_num() != 0 ? calloc(64 * 1024, sizeof(double)) : NULL;    \
      if (own) scratch = own;                                                                \
      _Pragma("omp for") for (size_t i = 0; i < n; ++i) a[i] = (double)i * 0.5 + K;          \
      _Pragma("omp for") for (size_t i = 0; i < n; i += 64) sum += a[i] + scratch[i % 1024]; \
      free(own);                                                                             \
    }                                                                                        \
    return sum;                                                                              \
  }
// clang-format off
DEFINE_FILL(0)
DEFINE_FILL(1)
DEFINE_FILL(2)
DEFINE_FILL(3)
DEFINE_FILL(4)
DEFINE_FILL(5)
// clang-format on
#undef DEFINE_FILL

static double (*const kFill[kTemporaries])(double*, size_t) = {fill_0, fill_1, fill_2,
                                                               fill_3, fill_4, fill_5};

/* A construct first met in step 3, while that step's temporaries lie on top of the heap. */
static double late_phase(const double* a, size_t n) {
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (size_t i = 0; i < n; ++i) sum += a[i];
  return sum;
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? atoi(argv[1]) : 40;
  double checksum = 0;
  for (int s = 0; s < steps; ++s) {
    double* t[kTemporaries];
    size_t n[kTemporaries];
    for (int k = 0; k < kTemporaries; ++k) {
      n[k] = 40000 + 60000 * (size_t)k; /* 0.3 MB to 2.7 MB */
      t[k] = malloc(n[k] * sizeof(double));
    }
    for (int k = 0; k < kTemporaries; ++k) checksum += kFill[k](t[k], n[k]);
    if (s == 3) checksum += late_phase(t[0], n[0]); /* code first run in a later step */
    for (int k = kTemporaries - 1; k >= 0; --k) free(t[k]);
  }
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  const double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec * 1e-6 +
                     (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec * 1e-6;
  printf("faults %ld cpu %.4f sum %.1f\n", usage.ru_minflt, cpu, checksum);
  return 0;
}
