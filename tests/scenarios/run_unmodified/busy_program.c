/* A plain C program that knows nothing of parperf: it prints its arguments, computes for about
 * 200 ms, lets a helper shell print a line, and prints a checksum. On stderr it reports how long
 * main() ran, which the test compares with the report's execution time. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A fixed amount of integer work with a result the optimiser cannot drop. */
static uint64_t checksum_pass(void) {
  uint64_t x = 88172645463325252ULL;
  uint64_t sum = 0;
  for (int i = 0; i < 1000000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sum += x >> 32;
  }
  return sum;
}

int main(int argc, char** argv) {
  const double start = now_s();
  for (int i = 1; i < argc; ++i) printf("argument %d: %s\n", i, argv[i]);
  /* Repeat the same pass until 200 ms have gone by: the duration does not depend on the machine's
   * speed, and the printed checksum does not depend on how many passes ran. */
  uint64_t checksum = 0;
  do {
    checksum = checksum_pass();
  } while (now_s() - start < 0.2);
  fflush(stdout);
  /* Under `parperf run` the shell inherits LD_PRELOAD; it must stay unmeasured. */
  if (system("echo helper shell says hello") != 0) return 1;
  printf("checksum %llu\n", (unsigned long long)checksum);
  fprintf(stderr, "busy_program: main ran %.6f s\n", now_s() - start);
  return 0;
}
