/* A plain pthreads program, linked against nothing of parperf's: the main thread works 100 ms
 * alone, then starts two threads that work 60 ms and 180 ms, and joins them. The work is sleeping
 * (common/burn.h), so the lengths hold when other processes compete for the cores. */
#include <pthread.h>
#include <stdio.h>

#include "common/burn.h"

static void* compute(void* milliseconds) {
  sleep_for_ms(*(int*)milliseconds);
  return NULL;
}

int main(void) {
  int short_ms = 60, long_ms = 180;
  pthread_t short_thread, long_thread;
  sleep_for_ms(100);
  pthread_create(&short_thread, NULL, compute, &short_ms);
  pthread_create(&long_thread, NULL, compute, &long_ms);
  pthread_join(short_thread, NULL);
  pthread_join(long_thread, NULL);
  printf("done\n");
  print_sleep_overshoot();
  return 0;
}
