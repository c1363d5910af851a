#include "cli/trace_recording.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <random>
#include <stdexcept>
#include <system_error>

#include "format/profile_files.hpp"

namespace parperf::cli {

void add_trace_options(CLI::App& run, TraceOptions& options) {
  run.add_flag("--trace", options.trace,
               "Also record an event trace (trace.<rank>.ppt): every interval, operation and user event "
               "with its time, for `parperf trace` and `parperf export`");
  run.add_option("--trace-buffer", options.buffer,
                 "Size of each of a thread's two trace buffers (default 1M; K, M, G suffixes)")
      ->type_name("SIZE");
  run.add_option("--trace-filter", options.filter,
                 "Comma-separated globs of interval and operation names to trace; a leading '-' excludes "
                 "(the profile keeps everything)")
      ->type_name("GLOBS");
  run.add_option("--trace-depth", options.depth, "Trace intervals nested at most N deep (program = 0)")
      ->type_name("N")
      ->check(CLI::Range(0, 256));
  run.add_option("--local-dir", options.local_dir,
                 "Write the trace to this (node-local) directory first, and move it into the run "
                 "directory when the program ends")
      ->type_name("DIR");
}

std::uint32_t parse_buffer_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const std::string unit = text.substr(digits);
  std::uint64_t scale = 1;
  if (unit == "k" || unit == "K" || unit == "KiB" || unit == "KB")
    scale = 1ull << 10;
  else if (unit == "m" || unit == "M" || unit == "MiB" || unit == "MB")
    scale = 1ull << 20;
  else if (unit == "g" || unit == "G" || unit == "GiB" || unit == "GB")
    scale = 1ull << 30;
  else if (!unit.empty() && unit != "B")
    throw std::invalid_argument(fmt::format("--trace-buffer {}: not a size (say 4M, 512K or 65536)", text));
  if (digits == 0 || digits > 12)
    throw std::invalid_argument(fmt::format("--trace-buffer {}: not a size (say 4M, 512K or 65536)", text));
  const std::uint64_t bytes = std::stoull(text.substr(0, digits)) * scale;
  if (bytes < 4096 || bytes > (256ull << 20))
    throw std::invalid_argument(fmt::format("--trace-buffer {}: must be from 4K to 256M", text));
  return static_cast<std::uint32_t>(bytes);
}

std::vector<std::pair<std::string, std::string>> trace_settings(
    const TraceOptions& options, const std::filesystem::path& local_trace_dir) {
  if (!options.trace) return {};
  std::vector<std::pair<std::string, std::string>> settings = {{"PARPERF_TRACE", "1"}};
  if (!options.buffer.empty())
    settings.emplace_back("PARPERF_TRACE_BUFFER", std::to_string(parse_buffer_size(options.buffer)));
  if (!options.filter.empty()) settings.emplace_back("PARPERF_TRACE_FILTER", options.filter);
  if (options.depth) settings.emplace_back("PARPERF_TRACE_DEPTH", std::to_string(*options.depth));
  if (!local_trace_dir.empty()) settings.emplace_back("PARPERF_TRACE_DIR", local_trace_dir.string());
  return settings;
}

std::vector<std::string> trace_arguments(const TraceOptions& options) {
  if (!options.trace) return {};
  std::vector<std::string> arguments = {"--trace"};
  if (!options.buffer.empty()) arguments.insert(arguments.end(), {"--trace-buffer", options.buffer});
  if (!options.filter.empty()) arguments.insert(arguments.end(), {"--trace-filter", options.filter});
  if (options.depth) arguments.insert(arguments.end(), {"--trace-depth", std::to_string(*options.depth)});
  if (!options.local_dir.empty()) arguments.insert(arguments.end(), {"--local-dir", options.local_dir});
  return arguments;
}

std::filesystem::path local_trace_directory(const TraceOptions& options) {
  if (!options.trace || options.local_dir.empty()) return {};
  // Unpredictable: another user of a shared --local-dir cannot create it first and plant files in it.
  std::random_device random;
  return std::filesystem::absolute(options.local_dir) /
         fmt::format("parperf-trace-{}-{:08x}{:08x}", getpid(), random(), random());
}

namespace {

// Whether `path` itself (not what a link names) is of `type` and belongs to this user: only such
// files are moved, so that a link planted as trace.0.ppt -> /etc/shadow never reaches a reader.
bool own(const std::filesystem::path& path, mode_t type) {
  struct stat status {};
  return ::lstat(path.c_str(), &status) == 0 && (status.st_mode & S_IFMT) == type &&
         status.st_uid == ::getuid();
}

}  // namespace

void move_local_traces(const std::filesystem::path& local, const std::filesystem::path& run_directory) {
  if (local.empty()) return;
  std::error_code error;
  if (!std::filesystem::is_directory(local, error)) return;  // the runtime wrote nothing there
  if (!own(local, S_IFDIR)) {
    fmt::print(stderr, "parperf: {} is not a directory of yours: its event traces are not moved\n",
               local.string());
    return;
  }
  for (const std::string& name : format::find_traces(local)) {
    const auto from = local / name;
    if (!own(from, S_IFREG)) {
      fmt::print(stderr, "parperf: {} is not a file of yours (a link?): not moved into the run directory\n",
                 from.string());
      continue;
    }
    const auto to = run_directory / name;
    std::filesystem::rename(from, to, error);
    if (error == std::errc::cross_device_link) {
      error.clear();
      std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, error);
      if (!error) std::filesystem::remove(from, error);
    }
    if (error)
      fmt::print(stderr, "parperf: cannot move the event trace {} into {}: {}; it stays in {}\n", name,
                 run_directory.string(), error.message(), local.string());
  }
  std::filesystem::remove(local, error);  // only when empty: what could not be moved stays
}

}  // namespace parperf::cli
