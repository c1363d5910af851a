/* A program that returns from main without shmem_finalize (the library finalizes from an exit
 * handler): each PE still writes its profile, with its one put to the next PE (SITE:lonely_put). */
#include <shmem.h>

static int slot;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int value = me;
  shmem_int_put(&slot, &value, 1, (me + 1) % shmem_n_pes()); /* SITE:lonely_put */
  shmem_barrier_all();
  return 0;
}
