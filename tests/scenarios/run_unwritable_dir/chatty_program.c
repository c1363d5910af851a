/* A plain C program that prints on both streams and computes for about 50 ms: enough for the
 * runtime to have started, measured and tried to write its profile before the program ends. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  printf("chatty_program: starting\n");
  fprintf(stderr, "chatty_program: a line on stderr\n");
  const double start = now_s();
  volatile unsigned long spins = 0;
  while (now_s() - start < 0.05) ++spins;
  printf("chatty_program: done\n");
  return 0;
}
