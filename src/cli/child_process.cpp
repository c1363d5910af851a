#include "cli/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace parperf::cli {
namespace {

// The handler below reads these, so they are lock-free atomics: there is one child per parperf.
std::atomic<pid_t> g_child{0};
std::atomic<int> g_pending_signal{0};  // a signal received before the child existed
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

// What a user or a batch system sends to end or poke a job: sent to parperf, they are meant for the
// program, so they are passed on to it.
constexpr int kForwardedSignals[] = {SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2};
constexpr int kForwardedCount = sizeof kForwardedSignals / sizeof kForwardedSignals[0];

extern "C" void forward_to_child(int signal_number, siginfo_t* info, void*) {
  // The terminal's Ctrl-C, Ctrl-\ and hang-up go to the whole foreground process group, the
  // program included: passing them on would deliver them twice.
  if (info != nullptr && info->si_code == SI_KERNEL) return;
  const int saved_errno = errno;
  const pid_t child = g_child.load();
  if (child > 0) {
    kill(child, signal_number);
  } else {
    g_pending_signal.store(signal_number);
  }
  errno = saved_errno;
}

// Saves the dispositions parperf changes while it waits, and restores them (also in the child,
// where an ignored signal would otherwise stay ignored across exec).
class WaitingSignals {
 public:
  WaitingSignals() {
    struct sigaction forward {};
    forward.sa_sigaction = forward_to_child;
    forward.sa_flags = SA_RESTART | SA_SIGINFO;
    sigemptyset(&forward.sa_mask);
    for (int i = 0; i < kForwardedCount; ++i) sigaction(kForwardedSignals[i], &forward, &saved_[i]);
  }
  WaitingSignals(const WaitingSignals&) = delete;
  WaitingSignals& operator=(const WaitingSignals&) = delete;
  ~WaitingSignals() { restore(); }

  // Async-signal-safe: called between fork and exec.
  void restore() const {
    for (int i = 0; i < kForwardedCount; ++i) sigaction(kForwardedSignals[i], &saved_[i], nullptr);
  }

 private:
  struct sigaction saved_[kForwardedCount] {};
};

// The program dies with parperf: SIGKILL, which it cannot ignore, when parperf ends without passing
// a signal on (SIGKILL, the OOM killer). When parperf is gone already, the new parent's pid differs
// from the one that forked, and the program never starts.
void die_with_parent(pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) raise(SIGKILL);
}

// Writes the decimal `value` at `out` followed by a NUL, without allocating (between fork and exec).
void write_decimal(char* out, long value) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (count > 0) *out++ = digits[--count];
  *out = '\0';
}

[[noreturn]] void exec_child(const WaitingSignals& signals, pid_t parent, char* const* argv,
                             char* const* envp, char* pid_digits, int error_pipe, int output) {
  die_with_parent(parent);
  signals.restore();
  if (pid_digits != nullptr) write_decimal(pid_digits, static_cast<long>(getpid()));
  if (output >= 0 && dup2(output, STDOUT_FILENO) < 0) {  // dup2's copy is not close-on-exec
    const int error = errno;
    [[maybe_unused]] const auto written = write(error_pipe, &error, sizeof error);
    _exit(127);
  }
  execvpe(argv[0], argv, envp);
  // Tell the parent why: the pipe closes on a successful exec, so a message here means failure.
  const int error = errno;
  [[maybe_unused]] const auto written = write(error_pipe, &error, sizeof error);
  _exit(127);
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                      const char* pid_variable, const std::function<void(int)>& read_output) {
  // Everything the child needs is built here: between fork and exec only async-signal-safe calls.
  std::vector<char*> child_argv;
  for (const auto& arg : argv) child_argv.push_back(const_cast<char*>(arg.c_str()));
  child_argv.push_back(nullptr);
  std::string pid_entry = pid_variable ? std::string(pid_variable) + "=" : std::string();
  const std::size_t digits_at = pid_entry.size();
  if (pid_variable) pid_entry.resize(digits_at + 24);
  std::vector<char*> child_envp;
  for (const auto& entry : environment) child_envp.push_back(const_cast<char*>(entry.c_str()));
  if (pid_variable) child_envp.push_back(pid_entry.data());
  child_envp.push_back(nullptr);

  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  int output_pipe[2] = {-1, -1};
  if (read_output && pipe2(output_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    close(error_pipe[0]);
    close(error_pipe[1]);
    throw std::system_error(error, std::generic_category(), "pipe");
  }
  const auto close_pipes = [&] {
    for (int fd : {error_pipe[0], error_pipe[1], output_pipe[0], output_pipe[1]})
      if (fd >= 0) close(fd);
  };
  std::fflush(nullptr);  // or buffered output would be written twice

  WaitingSignals signals;
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close_pipes();
    throw std::system_error(error, std::generic_category(), "fork");
  }
  if (child == 0) {
    close(error_pipe[0]);
    exec_child(signals, parent, child_argv.data(), child_envp.data(),
               pid_variable ? pid_entry.data() + digits_at : nullptr, error_pipe[1], output_pipe[1]);
  }
  g_child.store(child);
  if (const int pending = g_pending_signal.exchange(0); pending != 0) kill(child, pending);
  close(error_pipe[1]);
  error_pipe[1] = -1;
  if (read_output) {
    close(output_pipe[1]);
    output_pipe[1] = -1;
    read_output(output_pipe[0]);  // to the end: the child's exit (or exec's failure) closes it
    close(output_pipe[0]);
    output_pipe[0] = -1;
  }

  ChildResult result;
  result.pid = static_cast<int>(child);
  ssize_t received = 0;
  do {
    received = read(error_pipe[0], &result.exec_error, sizeof result.exec_error);
  } while (received < 0 && errno == EINTR);
  if (received != static_cast<ssize_t>(sizeof result.exec_error)) result.exec_error = 0;
  close(error_pipe[0]);

  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      g_child.store(0);
      throw std::system_error(errno, std::generic_category(), "waitpid");
    }
  }
  g_child.store(0);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace parperf::cli
