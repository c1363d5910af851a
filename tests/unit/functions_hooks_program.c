/* Functions compiled as `parperf cc --instrument=functions` compiles them (-finstrument-functions
 * -fno-omit-frame-pointer, functions.cmake), called by functions_hooks_test.cpp. Exported, so that
 * their sites carry their names (the test reads the profile without symbolizing it). */
#include <setjmp.h>

#define EXPORTED __attribute__((visibility("default"), noinline))

static jmp_buf escape;
static volatile int sink;

EXPORTED void fh_inner(void) { sink += 1; }
EXPORTED void fh_outer(void) {
  fh_inner();
  sink += 2;
}

/* fh_a calls fh_b, which calls fh_c, which longjmps back into fh_a: the exits of fh_c and fh_b
 * never run. fh_a then calls fh_sibling, which must be fh_a's child, not fh_c's. */
EXPORTED void fh_c(void) { longjmp(escape, 1); }
EXPORTED void fh_b(void) {
  fh_c();
  sink += 3;
}
EXPORTED void fh_sibling(void) { sink += 4; }
EXPORTED void fh_a(void) {
  if (!setjmp(escape)) fh_b();
  fh_sibling();
}

EXPORTED void fh_recursive(int n) {
  if (n > 0) fh_recursive(n - 1);
  sink += n;
}

EXPORTED void fh_threaded(void) { sink += 5; }

EXPORTED void fh_stray(void) { sink += 6; } /* never called: the test sends an exit for it only */
