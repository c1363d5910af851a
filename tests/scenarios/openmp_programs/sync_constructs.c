/* One small part per OpenMP synchronization construct, each with waiting of a known length. Every
 * parallel region has 2 threads. The work is sleeping (common/burn.h): the threads need no core for
 * it, so its lengths hold on a machine busy with other processes.
 *
 * Usage: sync_constructs [part...]   parts: critical lock ordered single sections nowait nested
 *                                           tasks; none: all of them, in this order (about 0.5 s)
 *
 * Expected, per part (times without the runtime's overheads; "waits" is what a thread loses):
 *   critical  each thread enters `critical` 20 times and holds it 2 ms: 80 ms of holding, one thread
 *             at a time, so the region lasts 80 ms and the threads wait 80 ms together, at the
 *             critical's entry or (when one thread wins it many times in a row) at the region's end.
 *   lock      the same with omp_set_lock/omp_unset_lock: 80 ms, 80 ms of waiting in all.
 *   ordered   8 iterations, schedule(static, 1), each 5 ms inside `ordered`: they run one after the
 *             other, 40 ms. Thread 0 (iterations 0,2,4,6) waits 3 x 5 ms at `ordered` and 5 ms at the
 *             loop's end; thread 1 (1,3,5,7) waits 4 x 5 ms at `ordered`.
 *   single    one thread computes 30 ms in `single`; the other waits 30 ms at its implicit barrier.
 *   sections  two sections of 20 ms and 60 ms, one per thread: 60 ms; the thread of the short one
 *             waits 40 ms at the implicit barrier of `sections`.
 *   nowait    two `for nowait` loops of 2 iterations (thread t gets iteration t) imbalanced in
 *             opposite directions (40+10 ms and 10+40 ms): both threads reach the explicit barrier
 *             after 50 ms, no waiting although each loop alone is 30 ms out of balance. Then two loops
 *             imbalanced the same way (40+40 ms and 10+10 ms): thread 1 waits 60 ms at the barrier.
 *   nested    omp_set_max_active_levels(2); an outer region of 2 threads, each starting an inner
 *             region of 2 threads (4 threads, level 2), each inner thread working 10 ms. About 10 ms,
 *             2 inner teams.
 *   tasks     the master creates 8 tasks of 10 ms and waits for them (`taskwait`); the other thread
 *             runs tasks at the region's implicit barrier: 80 ms of tasks, about 40 ms, 4 each.
 *
 * Prints one deterministic line per part (counters, and the order `ordered` imposed), and on stderr
 * how late its sleeps ended in all (common/burn.h). */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "common/burn.h"
#include "runtime_report.h"

static void critical_part(void) {
  int entries = 0;
#pragma omp parallel num_threads(2) /* SITE:critical_region */
  for (int k = 0; k < 20; ++k) {
#pragma omp critical /* SITE:critical */
    {
      sleep_for_ms(2);
      ++entries;
    }
  }
  printf("critical: %d entries\n", entries);
}

static void lock_part(void) {
  omp_lock_t lock;
  omp_init_lock(&lock);
  int entries = 0;
#pragma omp parallel num_threads(2) /* SITE:lock_region */
  for (int k = 0; k < 20; ++k) {
    omp_set_lock(&lock); /* SITE:lock_set */
    sleep_for_ms(2);
    ++entries;
    omp_unset_lock(&lock); /* SITE:lock_unset */
  }
  omp_destroy_lock(&lock);
  printf("lock: %d entries\n", entries);
}

static void ordered_part(void) {
  long order = 0;  // the iterations' numbers as digits, in the order they ran: 1234567 (0 first)
#pragma omp parallel for ordered schedule(static, 1) num_threads(2) /* SITE:ordered_loop */
  for (int i = 0; i < 8; ++i) {
#pragma omp ordered /* SITE:ordered */
    {
      sleep_for_ms(5);
      order = order * 10 + i;
    }
  }
  printf("ordered: %ld\n", order);
}

static void single_part(void) {
  int singles = 0;
#pragma omp parallel num_threads(2) /* SITE:single_region */
  {
#pragma omp single /* SITE:single */
    {
      sleep_for_ms(30);
      ++singles;
    }
  }
  printf("single: %d\n", singles);
}

static void sections_part(void) {
  int total_ms = 0;
#pragma omp parallel num_threads(2) reduction(+ : total_ms) /* SITE:sections_region */
  {
#pragma omp sections /* SITE:sections */
    {
#pragma omp section /* SITE:section_short */
      {
        sleep_for_ms(20);
        total_ms += 20;
      }
#pragma omp section /* SITE:section_long */
      {
        sleep_for_ms(60);
        total_ms += 60;
      }
    }
  }
  printf("sections: %d ms\n", total_ms);
}

static void nowait_part(void) {
  int iterations = 0;
#pragma omp parallel num_threads(2) reduction(+ : iterations) /* SITE:nowait_region */
  {
#pragma omp for schedule(static) nowait /* SITE:nowait_opposite_first */
    for (int i = 0; i < 2; ++i) {
      sleep_for_ms(i == 0 ? 40 : 10);
      ++iterations;
    }
#pragma omp for schedule(static) nowait /* SITE:nowait_opposite_second */
    for (int i = 0; i < 2; ++i) {
      sleep_for_ms(i == 0 ? 10 : 40);
      ++iterations;
    }
#pragma omp barrier                     /* SITE:barrier_balanced */
#pragma omp for schedule(static) nowait /* SITE:nowait_same_first */
    for (int i = 0; i < 2; ++i) {
      sleep_for_ms(i == 0 ? 40 : 10);
      ++iterations;
    }
#pragma omp for schedule(static) nowait /* SITE:nowait_same_second */
    for (int i = 0; i < 2; ++i) {
      sleep_for_ms(i == 0 ? 40 : 10);
      ++iterations;
    }
#pragma omp barrier /* SITE:barrier_imbalanced */
  }
  printf("nowait: %d iterations\n", iterations);
}

static void nested_part(void) {
  omp_set_max_active_levels(2);
  int inner_threads = 0;  // threads at level 2 in teams of 2: 4 when nesting is active
  int ids = 0;            // sum of 2 x outer + inner + 1 over them: 1 + 2 + 3 + 4 = 10
#pragma omp parallel num_threads(2) reduction(+ : inner_threads, ids) /* SITE:nested_outer */
  {
    const int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2) reduction(+ : inner_threads, ids) /* SITE:nested_inner */
    {
      const int inner = omp_get_thread_num();
      sleep_for_ms(10);
      if (omp_get_level() == 2 && omp_get_num_threads() == 2) {
        inner_threads += 1;
        ids += 2 * outer + inner + 1;
      }
    }
  }
  printf("nested: %d inner threads, ids %d\n", inner_threads, ids);
}

static void tasks_part(void) {
  int done = 0;                     // sum of the task numbers 1..8: 36
#pragma omp parallel num_threads(2) /* SITE:tasks_region */
  {
#pragma omp master /* SITE:master */
    {
      for (int t = 1; t <= 8; ++t) {
#pragma omp task firstprivate(t) shared(done) /* SITE:task */
        {
          sleep_for_ms(10);
#pragma omp atomic
          done += t;
        }
      }
#pragma omp taskwait /* SITE:taskwait */
    }
  }
  printf("tasks: %d\n", done);
}

struct part {
  const char* name;
  void (*run)(void);
};

static const struct part parts[] = {
    {"critical", critical_part}, {"lock", lock_part},     {"ordered", ordered_part}, {"single", single_part},
    {"sections", sections_part}, {"nowait", nowait_part}, {"nested", nested_part},   {"tasks", tasks_part},
};
enum { kParts = sizeof parts / sizeof parts[0] };

int main(int argc, char** argv) {
  report_openmp_runtime();
  for (int a = 1; a < argc; ++a) {
    int known = 0;
    for (int p = 0; p < kParts; ++p) known |= strcmp(argv[a], parts[p].name) == 0;
    if (!known) {
      fprintf(stderr, "sync_constructs: unknown part '%s'\n", argv[a]);
      return 2;
    }
  }
  for (int p = 0; p < kParts; ++p) {
    int wanted = argc == 1;
    for (int a = 1; a < argc; ++a) wanted |= strcmp(argv[a], parts[p].name) == 0;
    if (wanted) parts[p].run();
  }
  print_sleep_overshoot();
  return 0;
}
