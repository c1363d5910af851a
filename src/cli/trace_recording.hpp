// `parperf run --trace` and its settings: what they tell the runtime (PARPERF_TRACE* variables) and
// what `parperf run` does with a trace written to node-local storage first (--local-dir): it moves
// the files into the run directory once the program has ended, however it ended.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace parperf::cli {

struct TraceOptions {
  bool trace = false;
  std::string buffer;  // --trace-buffer SIZE: "4M", "512K", "65536"
  std::string filter;  // --trace-filter GLOBS
  std::optional<int> depth;
  std::string local_dir;  // --local-dir DIR
};

// Adds --trace, --trace-buffer, --trace-filter, --trace-depth and --local-dir to `run`.
void add_trace_options(CLI::App& run, TraceOptions& options);

// Bytes of a size like "4M", "512k", "1G", "65536"; throws std::invalid_argument with a message in
// the user's terms when it is not one, or is outside what the runtime accepts (4 KiB to 256 MiB).
std::uint32_t parse_buffer_size(const std::string& text);

// The runtime's settings for these options. `local_trace_dir` is where this process's runtime
// writes its trace when --local-dir is given (a directory of this `parperf run`'s own under it).
std::vector<std::pair<std::string, std::string>> trace_settings(const TraceOptions& options,
                                                                const std::filesystem::path& local_trace_dir);

// The options again, as arguments for the `parperf run` of each rank of a job (`--np`).
std::vector<std::string> trace_arguments(const TraceOptions& options);

// This process's directory under --local-dir ("<DIR>/parperf-trace-<pid>-<16 random hex digits>",
// a name no other user can guess and create first), empty without it.
std::filesystem::path local_trace_directory(const TraceOptions& options);

// Moves the trace files from `local` into `run_directory` (a rename, or a copy across file
// systems) and removes `local`. Only this user's regular files in this user's directory are moved,
// never a symbolic link. Problems are printed, never thrown: the profile is already there.
void move_local_traces(const std::filesystem::path& local, const std::filesystem::path& run_directory);

}  // namespace parperf::cli
