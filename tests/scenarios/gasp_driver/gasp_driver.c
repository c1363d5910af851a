/* A stand-in for a GASP-enabled UPC compiler (no such compiler is packaged here): it calls parperf's
 * GASP tool (libparperf-gasp.so) exactly as the code and runtime such a compiler produces would,
 * event by event, with the argument lists of the GASP 1.5 specification, for THREADS UPC threads
 * (pthreads, each with its own gasp_init context). Ground truth by construction, for
 * gasp_driver_test.cpp; every event names the source "stencil.upc" at the lines below.
 *
 * Each UPC thread t (0-based):
 *   line  5  upc_all_alloc(THREADS, 1024): GASP_UPC_ALL_ALLOC start/end
 *   line 10  function "void relax(int)" (GASP_C_FUNC) holding everything below up to the exit
 *   line 12  user event "phase" ("phase %d of %s": t, "relax") around the forall
 *   line 20  upc_forall (GASP_UPC_FORALL) of STEPS iterations, each:
 *     line 21  a shared write of PUT_BYTES * (t + 1) bytes (GASP_UPC_PUT) lasting PUT_MS ms
 *     line 22  upc_memget of MEMGET_BYTES bytes (GASP_UPC_MEMGET) lasting MEMGET_MS ms
 *   then works (t + 1) * WORK_MS ms
 *   line 30  upc_notify (GASP_UPC_NOTIFY)
 *   line 31  upc_wait (GASP_UPC_WAIT), a real barrier of the THREADS threads: thread t waits
 *            (THREADS - 1 - t) * WORK_MS ms for the last one
 *   line 40  upc_lock (GASP_UPC_LOCK) of one lock: thread 0 takes it before the others try (an
 *            untraced barrier orders them), and each holder keeps it HOLD_MS ms; the threads wait
 *            0, HOLD_MS and 2 * HOLD_MS ms, in some order
 *   line 41  upc_unlock (GASP_UPC_UNLOCK)
 *   line 45  upc_fence (GASP_UPC_FENCE)
 *   line 46  a non-blocking put of NB_PUT_BYTES bytes (GASP_UPC_NB_PUT_INIT; its end gives a handle)
 *   line 47  its completion (GASP_UPC_NB_SYNC)
 *   line 48  upc_memcpy of MEMCPY_BYTES bytes, line 49 upc_memset of MEMSET_BYTES bytes
 *   line 50  upc_all_broadcast of BROADCAST_BYTES bytes
 *   line 51  upc_all_reduceD of REDUCE_ELEMENTS doubles
 *   line 52  upc_all_permute of PERMUTE_BYTES bytes
 *   line 53  upc_all_prefix_reduceI of REDUCE_ELEMENTS ints
 *   line 55  upc_barrier (GASP_UPC_BARRIER), a real barrier again
 *   line 60  the collective exit (GASP_UPC_COLLECTIVE_EXIT, status 0)
 * and, for the tests of bad input when the program is given "stray": an end event without its start
 * (line 77), a context for another model (OpenSHMEM), whose events are not measured, and a user
 * event tag that gasp_create_event never gave. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/burn.h"
#include "parperf/gasp.h"

enum {
  THREADS = 3,
  STEPS = 10,
  PUT_BYTES = 64,
  PUT_MS = 1,
  MEMGET_BYTES = 4096,
  MEMGET_MS = 1,
  WORK_MS = 20,
  HOLD_MS = 10,
  NB_PUT_BYTES = 256,
  MEMCPY_BYTES = 512,
  MEMSET_BYTES = 128,
  BROADCAST_BYTES = 8192,
  PERMUTE_BYTES = 2048,
  REDUCE_ELEMENTS = 100
};

static const char* const kFile = "stencil.upc";
static pthread_barrier_t upc_barrier_of_wait, lock_order;
static pthread_mutex_t upc_lock_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned phase_event;
static int stray;
static char shared_memory[THREADS][8192]; /* only its addresses are passed: nothing is copied */
static gasp_upc_lock_t* const the_lock = (gasp_upc_lock_t*)&upc_lock_mutex;

static void take_lock(gasp_context_t c) {
  gasp_event_notify(c, GASP_UPC_LOCK, GASP_START, kFile, 40, 3, the_lock);
  pthread_mutex_lock(&upc_lock_mutex);
  gasp_event_notify(c, GASP_UPC_LOCK, GASP_END, kFile, 40, 3, the_lock);
}

static void release_lock(gasp_context_t c) {
  gasp_event_notify(c, GASP_UPC_UNLOCK, GASP_START, kFile, 41, 3, the_lock);
  pthread_mutex_unlock(&upc_lock_mutex);
  gasp_event_notify(c, GASP_UPC_UNLOCK, GASP_END, kFile, 41, 3, the_lock);
}

static void* upc_thread(void* argument) {
  const int t = (int)(long)argument;
  int argc = 0;
  char** argv = NULL;
  gasp_context_t c = gasp_init(GASP_MODEL_UPC, &argc, &argv);
  char* mine = shared_memory[t];
  char* next = shared_memory[(t + 1) % THREADS];

  gasp_event_notify(c, GASP_UPC_ALL_ALLOC, GASP_START, kFile, 5, 1, (size_t)THREADS, (size_t)1024);
  gasp_event_notify(c, GASP_UPC_ALL_ALLOC, GASP_END, kFile, 5, 1, (size_t)THREADS, (size_t)1024, (void*)mine);

  gasp_event_notify(c, GASP_C_FUNC, GASP_START, kFile, 10, 1, "void relax(int)");
  gasp_event_notify(c, phase_event, GASP_START, kFile, 12, 3, t, "relax");
  gasp_event_notify(c, GASP_UPC_FORALL, GASP_START, kFile, 20, 3);
  for (int step = 0; step < STEPS; ++step) {
    const size_t put_bytes = (size_t)(PUT_BYTES * (t + 1));
    gasp_event_notify(c, GASP_UPC_PUT, GASP_START, kFile, 21, 5, 1, (void*)next, (void*)mine, put_bytes);
    sleep_for_ms(PUT_MS);
    gasp_event_notify(c, GASP_UPC_PUT, GASP_END, kFile, 21, 5, 1, (void*)next, (void*)mine, put_bytes);
    gasp_event_notify(c, GASP_UPC_MEMGET, GASP_START, kFile, 22, 5, (void*)mine, (void*)next,
                      (size_t)MEMGET_BYTES);
    sleep_for_ms(MEMGET_MS);
    gasp_event_notify(c, GASP_UPC_MEMGET, GASP_END, kFile, 22, 5, (void*)mine, (void*)next,
                      (size_t)MEMGET_BYTES);
  }
  gasp_event_notify(c, GASP_UPC_FORALL, GASP_END, kFile, 20, 3);
  gasp_event_notify(c, phase_event, GASP_END, kFile, 12, 3);
  sleep_for_ms((t + 1) * WORK_MS);

  gasp_event_notify(c, GASP_UPC_NOTIFY, GASP_START, kFile, 30, 3, 0, 0);
  gasp_event_notify(c, GASP_UPC_NOTIFY, GASP_END, kFile, 30, 3, 0, 0);
  gasp_event_notify(c, GASP_UPC_WAIT, GASP_START, kFile, 31, 3, 0, 0);
  pthread_barrier_wait(&upc_barrier_of_wait);
  gasp_event_notify(c, GASP_UPC_WAIT, GASP_END, kFile, 31, 3, 0, 0);

  if (t == 0) take_lock(c);
  pthread_barrier_wait(&lock_order); /* the runtime's own ordering: no GASP event */
  if (t != 0) take_lock(c);
  sleep_for_ms(HOLD_MS);
  release_lock(c);

  gasp_event_notify(c, GASP_UPC_FENCE, GASP_START, kFile, 45, 3);
  gasp_event_notify(c, GASP_UPC_FENCE, GASP_END, kFile, 45, 3);
  gasp_upc_nb_handle_t handle = (gasp_upc_nb_handle_t)next;
  gasp_event_notify(c, GASP_UPC_NB_PUT_INIT, GASP_START, kFile, 46, 3, 1, (void*)next, (void*)mine,
                    (size_t)NB_PUT_BYTES);
  gasp_event_notify(c, GASP_UPC_NB_PUT_INIT, GASP_END, kFile, 46, 3, 1, (void*)next, (void*)mine,
                    (size_t)NB_PUT_BYTES, handle);
  gasp_event_notify(c, GASP_UPC_NB_SYNC, GASP_START, kFile, 47, 3, handle);
  gasp_event_notify(c, GASP_UPC_NB_SYNC, GASP_END, kFile, 47, 3, handle);
  gasp_event_notify(c, GASP_UPC_MEMCPY, GASP_START, kFile, 48, 3, (void*)next, (void*)mine,
                    (size_t)MEMCPY_BYTES);
  gasp_event_notify(c, GASP_UPC_MEMCPY, GASP_END, kFile, 48, 3, (void*)next, (void*)mine,
                    (size_t)MEMCPY_BYTES);
  gasp_event_notify(c, GASP_UPC_MEMSET, GASP_START, kFile, 49, 3, (void*)next, 0, (size_t)MEMSET_BYTES);
  gasp_event_notify(c, GASP_UPC_MEMSET, GASP_END, kFile, 49, 3, (void*)next, 0, (size_t)MEMSET_BYTES);

  gasp_event_notify(c, GASP_UPC_ALL_BROADCAST, GASP_START, kFile, 50, 3, (void*)mine, (void*)next,
                    (size_t)BROADCAST_BYTES, 0);
  gasp_event_notify(c, GASP_UPC_ALL_BROADCAST, GASP_END, kFile, 50, 3, (void*)mine, (void*)next,
                    (size_t)BROADCAST_BYTES, 0);
  gasp_event_notify(c, GASP_UPC_ALL_REDUCE, GASP_START, kFile, 51, 3, (void*)mine, (void*)next, 0,
                    (size_t)REDUCE_ELEMENTS, (size_t)0, (void*)NULL, 0, GASP_UPC_REDUCTION_D);
  gasp_event_notify(c, GASP_UPC_ALL_REDUCE, GASP_END, kFile, 51, 3, (void*)mine, (void*)next, 0,
                    (size_t)REDUCE_ELEMENTS, (size_t)0, (void*)NULL, 0, GASP_UPC_REDUCTION_D);
  gasp_event_notify(c, GASP_UPC_ALL_PERMUTE, GASP_START, kFile, 52, 3, (void*)mine, (void*)next, (void*)mine,
                    (size_t)PERMUTE_BYTES, 0);
  gasp_event_notify(c, GASP_UPC_ALL_PERMUTE, GASP_END, kFile, 52, 3, (void*)mine, (void*)next, (void*)mine,
                    (size_t)PERMUTE_BYTES, 0);
  gasp_event_notify(c, GASP_UPC_ALL_PREFIX_REDUCE, GASP_START, kFile, 53, 3, (void*)mine, (void*)next, 0,
                    (size_t)REDUCE_ELEMENTS, (size_t)0, (void*)NULL, 0, GASP_UPC_REDUCTION_I);
  gasp_event_notify(c, GASP_UPC_ALL_PREFIX_REDUCE, GASP_END, kFile, 53, 3, (void*)mine, (void*)next, 0,
                    (size_t)REDUCE_ELEMENTS, (size_t)0, (void*)NULL, 0, GASP_UPC_REDUCTION_I);
  gasp_event_notify(c, GASP_UPC_BARRIER, GASP_START, kFile, 55, 3, 0, 0);
  pthread_barrier_wait(&upc_barrier_of_wait);
  gasp_event_notify(c, GASP_UPC_BARRIER, GASP_END, kFile, 55, 3, 0, 0);
  gasp_event_notify(c, GASP_C_FUNC, GASP_END, kFile, 10, 1, "void relax(int)");

  if (stray && t == 0) {
    gasp_event_notify(c, GASP_UPC_UNLOCK, GASP_END, kFile, 77, 3, the_lock);
    gasp_event_notify(c, GASP_UPC_USEREVT_START + 500, GASP_ATOMIC, kFile, 78, 3, 1);
    gasp_context_t shmem = gasp_init(GASP_MODEL_SHMEM, &argc, &argv);
    gasp_event_notify(shmem, GASP_UPC_PUT, GASP_START, kFile, 79, 3, 1, (void*)next, (void*)mine, (size_t)8);
    gasp_event_notify(shmem, GASP_UPC_PUT, GASP_END, kFile, 79, 3, 1, (void*)next, (void*)mine, (size_t)8);
  }
  gasp_event_notify(c, GASP_UPC_COLLECTIVE_EXIT, GASP_START, kFile, 60, 1, 0);
  gasp_event_notify(c, GASP_UPC_COLLECTIVE_EXIT, GASP_END, kFile, 60, 1, 0);
  return NULL;
}

int main(int argc, char** argv) {
  stray = argc > 1 && strcmp(argv[1], "stray") == 0;
  pthread_barrier_init(&upc_barrier_of_wait, NULL, THREADS);
  pthread_barrier_init(&lock_order, NULL, THREADS);
  gasp_context_t main_context = gasp_init(GASP_MODEL_UPC, &argc, &argv);
  phase_event = gasp_create_event(main_context, "phase", "phase %d of %s");
  if (phase_event < GASP_UPC_USEREVT_START || phase_event > GASP_UPC_USEREVT_END) {
    fprintf(stderr, "gasp_create_event returned %u\n", phase_event);
    return 2;
  }
  pthread_t threads[THREADS];
  for (long t = 1; t < THREADS; ++t) pthread_create(&threads[t], NULL, upc_thread, (void*)t);
  upc_thread((void*)0);
  for (int t = 1; t < THREADS; ++t) pthread_join(threads[t], NULL);
  print_sleep_overshoot();
  return 0;
}
