/* Ends as told: `exit N` returns N from main; `raise NAME` (TERM or ABRT) sends itself that signal.
 * It computes for 20 ms first so the runtime has something to measure. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ending_program exit N | raise TERM|ABRT\n");
    return 64;
  }
  const double start = now_s();
  volatile unsigned long spins = 0;
  while (now_s() - start < 0.02) ++spins;
  printf("ending_program: %s %s\n", argv[1], argv[2]);
  fflush(stdout);
  if (strcmp(argv[1], "exit") == 0) return atoi(argv[2]);
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "TERM") == 0) raise(SIGTERM);
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "ABRT") == 0) abort();
  return 65;
}
