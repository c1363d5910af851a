/* A PE that ends the job: after a barrier, PE 1 works 100 ms and calls shmem_global_exit(3)
 * (SITE:global_exit); the others wait in a barrier that never completes. The job's exit status is 3.
 * PE 1 writes its profile before the job ends (end reason global_exit); the launcher then terminates
 * the others with SIGTERM, on which their runtimes write theirs (end reason signal). */
#include <shmem.h>

#include "shmem_work.h"

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  shmem_barrier_all();
  if (me == 1) {
    work_ms(100);
    shmem_global_exit(3); /* SITE:global_exit */
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
