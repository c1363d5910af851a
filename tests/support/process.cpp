#include "support/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace parperf::test {
namespace {

bool has_name(std::string_view entry, std::string_view name) {
  return entry.size() > name.size() && entry.starts_with(name) && entry[name.size()] == '=';
}

std::vector<std::string> environment_for(const ProcessOptions& options) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string_view text = *entry;
    bool keep = !text.starts_with("PARPERF_");
    for (const auto& name : options.unset_env) keep = keep && !has_name(text, name);
    for (const auto& [name, value] : options.env) keep = keep && !has_name(text, name);
    if (keep) entries.emplace_back(text);
  }
  for (const auto& [name, value] : options.env) entries.push_back(name + "=" + value);
  return entries;
}

[[noreturn]] void exec_child(char* const* argv, char* const* envp, const char* directory, int out, int err) {
  setpgid(0, 0);  // its own process group, so a timeout also ends what it started
  const int null_input = open("/dev/null", O_RDONLY);
  if (null_input >= 0) dup2(null_input, STDIN_FILENO);
  dup2(out, STDOUT_FILENO);
  dup2(err, STDERR_FILENO);
  if (*directory != '\0' && chdir(directory) != 0) {
    dprintf(STDERR_FILENO, "test: cannot enter %s: %s\n", directory, std::strerror(errno));
    _exit(127);
  }
  execvpe(argv[0], argv, envp);
  dprintf(STDERR_FILENO, "test: cannot run %s: %s\n", argv[0], std::strerror(errno));
  _exit(127);
}

// Reads both pipes to their end, or until the deadline; returns false on timeout.
bool drain(int out, int err, ProcessResult& result, std::chrono::steady_clock::time_point deadline) {
  pollfd fds[2] = {{out, POLLIN, 0}, {err, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_pipes = 2;
  while (open_pipes > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const int ready = poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  return true;
}

// The live children of every process, from /proc/<pid>/stat (the field after the parenthesised name).
std::multimap<pid_t, pid_t> children_by_parent() {
  std::multimap<pid_t, pid_t> children;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text;
    std::getline(stat, text);
    const auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(text.substr(close + 1));
    char state = 0;
    pid_t parent = 0;
    // A zombie has ended already (its children went to a reaper) and only waits to be reaped.
    if (fields >> state >> parent && state != 'Z')
      children.emplace(parent, static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

// Kills every descendant of this process until none is left (a few rounds: one may fork meanwhile).
void kill_all_descendants() {
  for (int round = 0; round < 5; ++round) {
    const auto children = children_by_parent();
    std::vector<pid_t> found;
    std::vector<pid_t> pending = {getpid()};
    while (!pending.empty()) {
      const pid_t parent = pending.back();
      pending.pop_back();
      const auto [begin, end] = children.equal_range(parent);
      for (auto it = begin; it != end; ++it) {
        found.push_back(it->second);
        pending.push_back(it->second);
      }
    }
    if (found.empty()) return;
    for (const pid_t pid : found) kill(pid, SIGKILL);
  }
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty()) throw std::invalid_argument("run_process: no program");
  std::vector<char*> child_argv;
  for (const auto& arg : argv) child_argv.push_back(const_cast<char*>(arg.c_str()));
  child_argv.push_back(nullptr);
  const auto environment = environment_for(options);
  std::vector<char*> child_envp;
  for (const auto& entry : environment) child_envp.push_back(const_cast<char*>(entry.c_str()));
  child_envp.push_back(nullptr);
  const std::string directory = options.working_directory.string();

  int out[2];
  int err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) exec_child(child_argv.data(), child_envp.data(), directory.c_str(), out[1], err[1]);
  setpgid(child, child);  // also here: whichever runs first, the group exists before a kill
  close(out[1]);
  close(err[1]);

  ProcessResult result;
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(options.timeout_seconds));
  if (!drain(out[0], err[0], result, deadline)) {
    result.timed_out = true;
    kill(-child, SIGKILL);
    if (options.kill_descendants) kill_all_descendants();
  }
  close(out[0]);
  close(err[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string describe(const ProcessResult& result) {
  std::ostringstream text;
  if (result.timed_out) {
    text << "timed out";
  } else if (result.signal != 0) {
    text << "killed by signal " << result.signal;
  } else {
    text << "exit status " << result.exit_code;
  }
  text << " after " << result.wall_seconds << " s\n--- stdout ---\n"
       << result.out << "--- stderr ---\n"
       << result.err;
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

}  // namespace parperf::test
