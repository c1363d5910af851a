/* A library whose constructor works 300 ms of CPU time before main (as libraries' initializers do:
 * a runtime's start-up, a table built at load time). It needs libparperf.so, so the loader runs its
 * constructor after parperf's runtime has started sampling: the samples' walks go from the
 * constructor through the loader's _dl_init to the loader's entry code, which has no table entry of
 * its own and is the main thread's first frame (initializer_main.c is the program). */
#include "spin_work.h"

__attribute__((constructor)) static void initialize_before_main(void) { heavy(0.3); }
