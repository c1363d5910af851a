/* A PE waiting for a value another PE writes: PE 0 calls shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1)
 * (SITE:flag_wait) right after a barrier; PE 1 works kLateMs ms and then sets the flag with
 * shmem_int_p. PE 0 waits kLateMs ms there, in kRounds rounds. Other PEs only join the barriers. */
#include <shmem.h>
#include <stdio.h>

#include "shmem_work.h"

enum { kRounds = 2, kLateMs = 200 };

static int flag;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  for (int round = 0; round < kRounds; ++round) {
    flag = 0;
    shmem_barrier_all();
    if (me == 0) {
      shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1); /* SITE:flag_wait */
    } else if (me == 1) {
      work_ms(kLateMs);
      shmem_int_p(&flag, 1, 0);
    }
    shmem_barrier_all();
  }
  if (me == 0) printf("flag ok\n");
  shmem_finalize();
  return 0;
}
