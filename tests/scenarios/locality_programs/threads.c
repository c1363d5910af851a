/* Two threads, each sweeping its own array once with unit stride, then the main thread sums both:
 * per-thread scores for three threads (each near spatial locality 1), combined into the program's.
 * With an argument "crash" the program then dies of SIGSEGV: the accesses up to the crash must
 * still be scored. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

enum { WORDS = 50000 };
static double arrays[2][WORDS];

__attribute__((noinline)) static void* fill(void* argument) {
  double* array = argument;
  for (int i = 0; i < WORDS; ++i) array[i] = i;
  return NULL;
}

int main(int argc, char** argv) {
  pthread_t threads[2];
  for (int t = 0; t < 2; ++t) pthread_create(&threads[t], NULL, fill, arrays[t]);
  for (int t = 0; t < 2; ++t) pthread_join(threads[t], NULL);
  double sum = 0;
  for (int i = 0; i < WORDS; ++i) sum += arrays[0][i] + arrays[1][i];
  printf("sum %.0f\n", sum);
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "crash") == 0) raise(SIGSEGV);
  return 0;
}
