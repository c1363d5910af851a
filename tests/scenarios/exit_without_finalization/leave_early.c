/* Leaves inside the interval "unfinished" without running atexit handlers or destructors:
 * `leave_early _exit` calls _exit(3), `leave_early quick_exit` calls quick_exit(4); `leave_early exit`
 * calls exit(5), which runs them, still inside the interval. A vfork child
 * that calls _exit first must not end the parent's measurement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parperf/parperf.h"

int main(int argc, char** argv) {
  static parperf_site unfinished = PARPERF_SITE_INIT("unfinished", PARPERF_KIND_USER);
  if (argc < 2) return 2;
  const pid_t child = vfork();
  if (child == 0) _exit(0);
  waitpid(child, NULL, 0);
  parperf_interval_begin(&unfinished, 0);
  puts("leaving");
  fflush(stdout);
  if (strcmp(argv[1], "_exit") == 0) _exit(3);
  if (strcmp(argv[1], "exit") == 0) exit(5);
  quick_exit(4);
}
