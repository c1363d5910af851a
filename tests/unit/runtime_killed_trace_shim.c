/* Preloaded into runtime_killed_trace_program by runtime_killed_trace_test: the trace writer's third
 * write of a block's contents (the writes larger than its 64 KB buffer) writes half of them and the
 * process is killed with SIGKILL there, as a kill in the middle of the write leaves the file: the
 * block's section still has the placeholder length 0 and part of its bytes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

__attribute__((visibility("default"))) ssize_t write(int fd, const void* data, size_t size) {
  static ssize_t (*next)(int, const void*, size_t);
  static int large_writes;
  if (!next) next = (ssize_t(*)(int, const void*, size_t))dlsym(RTLD_NEXT, "write");
  char name[16] = {0};
  if (size > 64 * 1024 && prctl(PR_GET_NAME, name) == 0 && strcmp(name, "parperf-trace") == 0 &&
      ++large_writes == 3) {
    next(fd, data, size / 2);
    kill(getpid(), SIGKILL);
  }
  return next(fd, data, size);
}
