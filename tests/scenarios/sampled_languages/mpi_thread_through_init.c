/* An MPI program with a thread of its own that spins through MPI_Init, for the samples taken on the
 * program's other threads while the process starts up (sampled by the wall clock).
 *
 * main starts the thread and waits until it spins, calls MPI_Init, and stops the thread as soon as
 * MPI_Init returns. So the thread's time is almost all inside the process's start-up, and the little
 * outside it is measured: from its start to MPI_Init's call, and from MPI_Init's return to its end.
 * Each rank prints "rank R: init S s, thread outside init S s" (stdout) for its test. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "../common/burn.h"

static double now(void) { return scenario_seconds(CLOCK_MONOTONIC); }

static atomic_int spinning;
static atomic_int stop;
static double thread_started, thread_ended;

/* The thread's whole work: its samples' paths pass through this name. */
__attribute__((noinline)) void* spin_through_init(void* unused) {
  (void)unused;
  volatile double sum = 0;
  thread_started = now();
  atomic_store(&spinning, 1);
  while (!atomic_load(&stop)) sum = sum + 1;
  thread_ended = now();
  return NULL;
}

int main(int argc, char** argv) {
  pthread_t thread;
  if (pthread_create(&thread, NULL, spin_through_init, NULL) != 0) return 1;
  while (!atomic_load(&spinning)) {
  }
  const double init_called = now();
  MPI_Init(&argc, &argv);
  const double init_returned = now();
  atomic_store(&stop, 1);
  pthread_join(thread, NULL);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double before = init_called > thread_started ? init_called - thread_started : 0;
  const double after = thread_ended > init_returned ? thread_ended - init_returned : 0;
  printf("rank %d: init %.6f s, thread outside init %.6f s\n", rank, init_returned - init_called,
         before + after);
  MPI_Finalize();
  return 0;
}
