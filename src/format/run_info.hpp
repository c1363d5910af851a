// run.json: what `parperf run` records about one run beside the profiles the runtime writes (the
// command line, where and how long it ran, how it ended, which collectors it used). Defined once
// here for the command that writes it and the analysis that reads it; docs/format.md describes it.
//
// JSON, so that people and scripts can read it; typed and versioned all the same: the reader checks
// every field it knows (a field of the wrong type is an error naming it), leaves out fields it does
// not know (a later minor change adds fields), and refuses a later major format.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::format {

inline constexpr int kRunInfoFormat = 1;  // `parperf_run_format`
// run.json holds a command line and a few names: anything larger is not ours.
inline constexpr std::uint64_t kMaxRunInfoBytes = 16 * 1024 * 1024;

// One run of a sweep (`parperf run --sweep`): how many processors it was given and which repetition
// it was, so that `parperf predict` need not infer the count from the profiles.
struct SweepPoint {
  std::int64_t processors = 1;
  std::string unit = "threads";  // "threads" (OMP_NUM_THREADS) or "ranks" (an MPI job of that size)
  std::int64_t repetition = 1;   // 1, 2, ...
};

// The cores of the host `parperf run` ran on (rank 0's, in an MPI job), read before the program
// started: those online, and those the program may run on (its CPU affinity, which it inherits;
// taskset, cgroups and batch systems narrow it). The report compares them with the program's threads.
struct HostCores {
  std::int64_t online = 0;
  std::int64_t allowed = 0;
};

struct RunInfo {
  int format = kRunInfoFormat;
  std::string parperf_version;       // of the parperf that wrote it
  std::vector<std::string> command;  // the program and its arguments, as given
  std::string working_directory;
  std::string hostname;
  double start_unix_s = 0;
  double wall_time_s = 0;
  std::optional<int> exit_code;  // null in JSON when a signal ended the program
  std::optional<int> signal;
  std::int64_t processes = 1;         // ranks of an MPI job
  std::string mpi_collector;          // the PMPI wrapper library preloaded, empty (null) when none
  std::string openmp_runtime;         // e.g. "libomp (replacing libgomp)", "none" (cli/openmp_runtime.hpp)
  std::vector<std::string> profiles;  // file names, ordered by rank
  std::map<std::string, std::string> environment;  // the PARPERF_* variables the program saw
  std::map<std::string, std::string> parameters;   // `--param name=value`: the problem's parameters
  std::optional<SweepPoint> sweep;                 // set in the runs of a sweep
  std::optional<HostCores> cores;                  // null when unknown (an older parperf)
};

// A run.json that is not one: the problem alone ("not a JSON object", "'processes' is not a
// number"), for callers that name the file their own way.
class RunInfoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The JSON text, two-space indented, ending in a newline. Bytes that are not UTF-8 (argv and the
// environment are bytes) are replaced, as JSON cannot hold them.
std::string run_info_json(const RunInfo& info);

// Throws RunInfoError.
RunInfo parse_run_info(std::string_view text);

// Reads DIR/run.json: nothing when there is none; RunInfoError for a damaged one or one that is not a
// regular file (format/regular_file.hpp) or larger than kMaxRunInfoBytes.
std::optional<RunInfo> read_run_info(const std::filesystem::path& directory);

// Writes `directory`/run.json atomically (a temporary file renamed over it), so a reader, or another
// rank's parperf writing the same file, never sees half a file. The temporary file is created anew
// (O_EXCL | O_NOFOLLOW): nothing planted at its name is written through. Throws std::runtime_error
// naming the file.
void write_run_info(const std::filesystem::path& directory, const RunInfo& info);

}  // namespace parperf::format
