/* Work of a known length for the OpenSHMEM test programs: a sleep that resumes after interruptions
 * (the launcher's SIGCONT), so a PE is busy exactly as long as its ground truth says. */
#ifndef SHMEM_WORK_H
#define SHMEM_WORK_H

#include <time.h>

static inline void work_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

#endif
