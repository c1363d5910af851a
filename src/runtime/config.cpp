#include "runtime/config.hpp"
#include "runtime/perf_sample_buffer.hpp"

#include <fnmatch.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "format/job_environment.hpp"
#include "format/run_directory.hpp"
#include "runtime/diagnostics.hpp"

namespace parperf::runtime {
namespace {

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

bool parse_flag(const char* name, bool fallback) {
  const char* value = env(name);
  if (!value) return fallback;
  if (!std::strcmp(value, "1") || !strcasecmp(value, "on") || !strcasecmp(value, "yes") ||
      !strcasecmp(value, "true"))
    return true;
  if (!std::strcmp(value, "0") || !strcasecmp(value, "off") || !strcasecmp(value, "no") ||
      !strcasecmp(value, "false"))
    return false;
  warn("%s='%s' is not one of 1/0/on/off/yes/no/true/false; using %s", name, value, fallback ? "on" : "off");
  return fallback;
}

// `value` as a whole number from min to max, nothing else around it.
bool parse_integer_quietly(const char* value, long long min, long long max, long long& out) {
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value, &end, 10);
  if (errno != 0 || end == value || *end != '\0' || parsed < min || parsed > max) return false;
  out = parsed;
  return true;
}

bool parse_integer(const char* name, const char* value, long long min, long long max, long long& out) {
  long long parsed = 0;
  if (!parse_integer_quietly(value, min, max, parsed)) {
    warn("%s='%s' is not a whole number from %lld to %lld; ignored", name, value, min, max);
    return false;
  }
  out = parsed;
  return true;
}

long long integer_from(const char* name, long long min, long long max, long long fallback) {
  const char* value = env(name);
  long long parsed = fallback;
  if (value) parse_integer(name, value, min, max, parsed);
  return parsed;
}

void copy_string(char* destination, std::size_t size, const char* name, const char* value) {
  const std::size_t length = std::strlen(value);
  if (length >= size) {
    warn("%s is longer than %zu characters; ignored", name, size - 1);
    return;
  }
  std::memcpy(destination, value, length + 1);
}

void read_program_name(Config& config) {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  const char* base = "program";
  if (n > 0) {
    path[n] = '\0';
    const char* slash = std::strrchr(path, '/');
    base = slash ? slash + 1 : path;
  }
  const std::size_t length = std::min(std::strlen(base), sizeof config.program_name - 1);
  std::memcpy(config.program_name, base, length);
  config.program_name[length] = '\0';
}

// The first of parperf's own variable and the launchers' ones that is set; null when none is.
template <std::size_t N>
const char* first_set(const char* own, const char* const (&launcher)[N]) {
  if (env(own)) return own;
  for (const char* name : launcher)
    if (env(name)) return name;
  return nullptr;
}

// The rank of this process: explicit, or what the job launchers export (format/job_environment.hpp).
void read_rank(Config& config) {
  if (const char* name = first_set("PARPERF_RANK", format::kLauncherRankVariables)) {
    long long rank = 0;
    if (parse_integer(name, env(name), 0, 1LL << 40, rank)) config.rank = rank;
  }
  if (const char* name = first_set("PARPERF_WORLD_SIZE", format::kLauncherSizeVariables)) {
    long long size = 1;
    if (parse_integer(name, env(name), 1, 1LL << 40, size)) config.world_size = size;
  }
  if (config.rank >= config.world_size) config.world_size = config.rank + 1;
}

// PARPERF_TEST_CLOCK_SKEW="<rank>:<offset_ns>:<drift_ppm>[,...]": for tests of the clock correction
// only, this rank's time stamps are written as if its clock were off by offset + drift x elapsed.
// The whole setting is parsed before any of it applies: a typo warns and changes nothing.
void read_clock_skew(Config& config) {
  const char* value = env("PARPERF_TEST_CLOCK_SKEW");
  if (!value) return;
  long long offset_for_us = 0;
  double drift_for_us = 0;
  for (const char* p = value;;) {
    char* end = nullptr;
    errno = 0;
    const long long rank = std::strtoll(p, &end, 10);
    if (end == p || *end != ':' || rank < 0) break;
    p = end + 1;
    const long long offset = std::strtoll(p, &end, 10);
    if (end == p || errno != 0) break;
    p = end;
    double drift_ppm = 0;
    if (*p == ':') {
      drift_ppm = std::strtod(p + 1, &end);
      if (end == p + 1 || errno != 0) break;
      p = end;
    }
    if (rank == config.rank) offset_for_us = offset, drift_for_us = drift_ppm * 1e-6;
    if (*p == '\0') {
      config.clock_skew_offset_ns = offset_for_us;
      config.clock_skew_drift = drift_for_us;
      return;
    }
    if (*p != ',') break;
    ++p;
  }
  warn("PARPERF_TEST_CLOCK_SKEW='%s' is not <rank>:<offset_ns>[:<drift_ppm>][,...]; ignored", value);
}

bool matches_any(const char* patterns, const char* name) {
  char pattern[sizeof Config::include_names];
  const char* p = patterns;
  while (*p) {
    const char* comma = std::strchr(p, ',');
    const std::size_t length = comma ? static_cast<std::size_t>(comma - p) : std::strlen(p);
    std::memcpy(pattern, p, length);
    pattern[length] = '\0';
    if (length > 0 && fnmatch(pattern, name, 0) == 0) return true;
    p += length + (comma ? 1 : 0);
  }
  return false;
}

// Replaces each "%p" with the process id, so several unrelated processes can share one setting.
bool expand_pid(const char* pattern, char* out, std::size_t size) {
  char pid[24];
  std::snprintf(pid, sizeof pid, "%lld", static_cast<long long>(getpid()));
  std::size_t used = 0;
  for (const char* p = pattern; *p; ++p) {
    const bool is_pid = p[0] == '%' && p[1] == 'p';
    const char* piece = is_pid ? pid : p;
    const std::size_t length = is_pid ? std::strlen(pid) : 1;
    if (used + length + 1 > size) return false;
    std::memcpy(out + used, piece, length);
    used += length;
    if (is_pid) ++p;
  }
  out[used] = '\0';
  return true;
}

// The profile is written at exit, when the program may have changed its working directory: a
// relative directory is anchored to the one the program started in.
void make_absolute(char* path, std::size_t size) {
  if (path[0] == '/') return;
  char cwd[sizeof Config::output_dir];
  if (!getcwd(cwd, sizeof cwd)) return;
  const std::size_t cwd_length = std::strlen(cwd);
  const std::size_t path_length = std::strlen(path);
  if (cwd_length + 1 + path_length + 1 > size) {
    warn("the run directory '%s' is too long once made absolute; it stays relative", path);
    return;
  }
  std::memmove(path + cwd_length + 1, path, path_length + 1);
  std::memcpy(path, cwd, cwd_length);
  path[cwd_length] = '/';
}

// A directory variable, with "%p" replaced by the pid.
void read_directory(const char* variable, char (&directory)[sizeof Config::output_dir]) {
  const char* value = env(variable);
  if (!value) return;
  char expanded[sizeof Config::output_dir];
  if (expand_pid(value, expanded, sizeof expanded))
    copy_string(directory, sizeof directory, variable, expanded);
  else
    warn("%s is longer than %zu characters; ignored", variable, sizeof expanded - 1);
}

void read_trace_settings(Config& config) {
  config.trace = parse_flag("PARPERF_TRACE", false);
  if (!config.trace) return;
  config.trace_buffer_bytes =
      static_cast<std::uint32_t>(integer_from("PARPERF_TRACE_BUFFER", 4096, 256 << 20, 1 << 20));
  config.trace_max_depth =
      static_cast<std::uint32_t>(integer_from("PARPERF_TRACE_DEPTH", 0, kMaxTraceDepth, kMaxTraceDepth));
  if (const char* v = env("PARPERF_TRACE_FILTER"))
    copy_string(config.trace_filter, sizeof config.trace_filter, "PARPERF_TRACE_FILTER", v);
  read_directory("PARPERF_TRACE_DIR", config.trace_dir);
  config.trace_writer_delay_us =
      static_cast<std::uint32_t>(integer_from("PARPERF_TEST_TRACE_WRITER_DELAY_US", 0, 10'000'000, 0));
  if (config.trace_dir[0]) make_absolute(config.trace_dir, sizeof config.trace_dir);
}

void read_sample_settings(Config& config) {
  config.sample_hz = static_cast<std::uint32_t>(integer_from("PARPERF_SAMPLE_HZ", 0, 100000, 0));
  if (config.sample_hz == 0) return;
  config.sample_nodes = static_cast<std::uint32_t>(integer_from("PARPERF_SAMPLE_NODES", 64, 1 << 22, 16384));
  config.sample_stack_bytes = static_cast<std::uint32_t>(
      integer_from("PARPERF_SAMPLE_STACK", kLeastStackBytes, kMostStackBytes, kDefaultStackBytes));
  if (const char* clock = env("PARPERF_SAMPLE_CLOCK")) {
    if (std::strcmp(clock, "wall") == 0)
      config.sample_wall_clock = true;
    else if (std::strcmp(clock, "cpu") != 0)
      warn("PARPERF_SAMPLE_CLOCK='%s' is neither 'cpu' nor 'wall'; sampling CPU time", clock);
  }
  if (const char* source = env("PARPERF_SAMPLE_SOURCE")) {
    if (std::strcmp(source, "timer") == 0)
      config.sample_timer_only = true;
    else if (std::strcmp(source, "perf-signal") == 0)
      config.sample_no_trap = true;
    else if (std::strcmp(source, "perf-buffer") == 0)
      config.sample_buffered = true;
    else if (std::strcmp(source, "auto") != 0 && std::strcmp(source, "perf-trap") != 0)
      warn(
          "PARPERF_SAMPLE_SOURCE='%s' is not 'auto', 'perf-trap', 'perf-buffer', 'perf-signal' or 'timer'; "
          "using perf events where allowed",
          source);
  }
}

}  // namespace

void load_config(Config& config) {
  config = Config{};
  // `parperf run` names the one process it measures; the processes that one forks (shells,
  // compilers, helpers) inherit LD_PRELOAD but stay silent.
  if (const char* pid = env("PARPERF_PID")) {
    long long owner = 0;
    if (!parse_integer_quietly(pid, 1, 1LL << 31, owner)) {
      // Not a pid: which process it meant is unknown, so none measures; but not silently.
      warn(
          "PARPERF_PID='%s' is not a process id; this process is not measured (parperf run sets it to the "
          "pid of the program it starts)",
          pid);
      config.enabled = false;
      return;
    }
    if (owner != static_cast<long long>(getpid())) {
      config.enabled = false;
      return;
    }
    config.launched_by_parperf = true;
  }
  config.enabled = parse_flag("PARPERF_ENABLE", true);
  if (!config.enabled) return;
  config.quiet = parse_flag("PARPERF_QUIET", false);
  config.start_recording = !parse_flag("PARPERF_START_PAUSED", false);
  config.install_signal_handlers = parse_flag("PARPERF_SIGNALS", true);
  config.max_threads = static_cast<std::uint32_t>(integer_from("PARPERF_MAX_THREADS", 1, 1 << 20, 1024));
  config.max_nodes = static_cast<std::uint32_t>(integer_from("PARPERF_MAX_NODES", 16, 1 << 30, 100000));
  config.max_depth = static_cast<std::uint32_t>(integer_from("PARPERF_MAX_DEPTH", 1, kMaxFrames - 2, 64));
  config.cpu_sample_ns =
      static_cast<std::uint64_t>(integer_from("PARPERF_CPU_SAMPLE_US", 0, 60000000, 100)) * 1000u;
  if (const char* v = env("PARPERF_INCLUDE"))
    copy_string(config.include_names, sizeof config.include_names, "PARPERF_INCLUDE", v);
  if (const char* v = env("PARPERF_EXCLUDE"))
    copy_string(config.exclude_names, sizeof config.exclude_names, "PARPERF_EXCLUDE", v);
  read_program_name(config);
  read_rank(config);
  read_clock_skew(config);
  read_directory("PARPERF_DIR", config.output_dir);
  if (config.output_dir[0] == '\0') {
    format::default_run_directory_name(config.output_dir, sizeof config.output_dir, config.program_name,
                                       std::time(nullptr));
  }
  make_absolute(config.output_dir, sizeof config.output_dir);
  read_trace_settings(config);
  read_sample_settings(config);
}

bool flag_setting(const char* variable, bool fallback) noexcept { return parse_flag(variable, fallback); }

bool name_is_traced(const Config& config, const char* name) {
  bool has_include = false, included = false;
  const char* p = config.trace_filter;
  char pattern[sizeof Config::trace_filter];
  while (*p) {
    const char* comma = std::strchr(p, ',');
    const std::size_t length = comma ? static_cast<std::size_t>(comma - p) : std::strlen(p);
    const bool exclude = length > 0 && p[0] == '-';
    const std::size_t skip = length > 0 && (p[0] == '-' || p[0] == '+') ? 1 : 0;
    std::memcpy(pattern, p + skip, length - skip);
    pattern[length - skip] = '\0';
    if (length > skip) {
      const bool match = fnmatch(pattern, name, 0) == 0;
      if (exclude && match) return false;
      if (!exclude) has_include = true, included = included || match;
    }
    p += length + (comma ? 1 : 0);
  }
  return !has_include || included;
}

bool name_is_recorded(const Config& config, const char* name) {
  if (config.include_names[0] && !matches_any(config.include_names, name)) return false;
  return !(config.exclude_names[0] && matches_any(config.exclude_names, name));
}

}  // namespace parperf::runtime
