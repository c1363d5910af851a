// Waits that any handled signal cuts short (signal(7): they fail with EINTR or return, SA_RESTART or
// not), each called once and NOT retried, as many programs call them: under wall-clock sampling at
// 1 kHz a sample falls inside every one of them, and parperf must keep them whole.
//
//   whole_waits
//
// In order, 100 ms each: usleep (in wait_usleep), nanosleep (wait_nanosleep), poll on an empty pipe
// (wait_poll), select on it (wait_select); then pause, which the program's own SIGALRM, due after
// 100 ms, must still end (wait_pause). Prints one line per wait, "<name> <ms> ms <result>", and
// "whole" when each lasted at least 95 ms and returned as it does when nothing interrupts it (0, or
// -1 with EINTR for pause after the alarm); otherwise "cut short" and exits with status 1.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int failures = 0;

static void report(const char* name, double start, int result, int expected, int expected_errno) {
  const double ms = now_ms() - start;
  const int whole = ms >= 95.0 && result == expected && (expected == 0 || errno == expected_errno);
  printf("%s %.1f ms %d%s%s\n", name, ms, result, result < 0 ? " " : "", result < 0 ? strerror(errno) : "");
  if (!whole) ++failures;
}

__attribute__((noinline)) void wait_usleep(void) {
  const double start = now_ms();
  report("usleep", start, usleep(100000), 0, 0);
}

__attribute__((noinline)) void wait_nanosleep(void) {
  const double start = now_ms();
  const struct timespec request = {0, 100000000};
  report("nanosleep", start, nanosleep(&request, NULL), 0, 0);
}

__attribute__((noinline)) void wait_poll(int fd) {
  const double start = now_ms();
  struct pollfd p = {fd, POLLIN, 0};
  report("poll", start, poll(&p, 1, 100), 0, 0);
}

__attribute__((noinline)) void wait_select(int fd) {
  const double start = now_ms();
  fd_set read;
  FD_ZERO(&read);
  FD_SET(fd, &read);
  struct timeval timeout = {0, 100000};
  report("select", start, select(fd + 1, &read, NULL, NULL, &timeout), 0, 0);
}

static void on_alarm(int signal) { (void)signal; }

__attribute__((noinline)) void wait_pause(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_alarm;
  sigemptyset(&action.sa_mask);
  sigaction(SIGALRM, &action, NULL);
  const struct itimerval alarm_in = {{0, 0}, {0, 100000}};
  const double start = now_ms();
  setitimer(ITIMER_REAL, &alarm_in, NULL);
  report("pause", start, pause(), -1, EINTR);
}

int main(void) {
  int fds[2];
  if (pipe(fds) != 0) return 2;
  wait_usleep();
  wait_nanosleep();
  wait_poll(fds[0]);
  wait_select(fds[0]);
  wait_pause();
  puts(failures ? "cut short" : "whole");
  return failures ? 1 : 0;
}
