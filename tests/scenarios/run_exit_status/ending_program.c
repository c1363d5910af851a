/* Ends as told: `exit N` returns N from main; `limit N` lowers RLIMIT_FSIZE to N bytes, prints a
 * line it leaves in stdio's buffer and returns 0 (the runtime's profile is larger than N); `raise NAME`
 * (TERM, ABRT, SEGV, BUS, FPE) sends itself that signal; `wait` prints "waiting" and sleeps until a signal
 * from outside ends it (at most 10 s, then it exits 66). A program that sends itself SIGSEGV with raise()
 * dies of it: no instruction faulted, so nothing would raise it again. It computes for 20 ms first so the
 * runtime has something to measure. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: ending_program exit N | limit N | raise TERM|ABRT|SEGV|BUS|FPE | wait -\n");
    return 64;
  }
  const double start = now_s();
  volatile unsigned long spins = 0;
  while (now_s() - start < 0.02) ++spins;
  printf("ending_program: %s %s\n", argv[1], argv[2]);
  fflush(stdout);
  if (strcmp(argv[1], "exit") == 0) return atoi(argv[2]);
  if (strcmp(argv[1], "limit") == 0) {
    struct rlimit limit = {(rlim_t)atol(argv[2]), (rlim_t)atol(argv[2])};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 67;
    printf("ending_program: last words, still buffered at exit\n");
    return 0;
  }
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "TERM") == 0) raise(SIGTERM);
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "ABRT") == 0) abort();
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "SEGV") == 0) raise(SIGSEGV);
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "BUS") == 0) raise(SIGBUS);
  if (strcmp(argv[1], "raise") == 0 && strcmp(argv[2], "FPE") == 0) raise(SIGFPE);
  if (strcmp(argv[1], "wait") == 0) {
    printf("waiting\n");
    fflush(stdout);
    for (int i = 0; i < 100; ++i) {
      struct timespec pause = {0, 100000000};
      nanosleep(&pause, NULL);
    }
    return 66;
  }
  if (strcmp(argv[1], "raise") == 0) {
    printf("ending_program: still running after raise(SIG%s)\n", argv[2]);
    return 2; /* the signal was swallowed */
  }
  return 65;
}
