/* What a sampled program sees of the sampling clocks' file descriptors: spins 100 ms of CPU time (so
 * it is sampled), opens /dev/null and prints the number it got ("first 3": the numbers programs use
 * are left to the program) and its soft limit ("limit 1024"), then every other descriptor it did not
 * open itself, with whether it is close-on-exec: "other N cloexec|inherited". */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
  volatile double x = 0;
  for (const double start = cpu_seconds(); cpu_seconds() - start < 0.1;)
    for (int i = 0; i < 10000; ++i) x += i * 0.5;
  const int first = open("/dev/null", O_RDONLY);
  printf("first %d\n", first);
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) printf("limit %llu\n", (unsigned long long)limit.rlim_cur);
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return 1;
  for (struct dirent* e; (e = readdir(dir));) {
    const int fd = atoi(e->d_name);
    if (e->d_name[0] == '.' || fd <= 2 || fd == first || fd == dirfd(dir)) continue;
    const int flags = fcntl(fd, F_GETFD);
    printf("other %d %s\n", fd, flags >= 0 && (flags & FD_CLOEXEC) ? "cloexec" : "inherited");
  }
  closedir(dir);
  return 0;
}
