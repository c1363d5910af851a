// run.json: what `parperf run` records about one run beside the profiles the runtime writes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parperf::cli {

inline constexpr int kRunInfoFormat = 1;

struct RunInfo {
  std::vector<std::string> command;  // the program and its arguments, as given
  std::string working_directory;
  std::string hostname;
  double start_unix_s = 0;
  double wall_time_s = 0;
  std::optional<int> exit_code;  // null in JSON when a signal ended the program
  std::optional<int> signal;
  std::int64_t processes = 1;         // ranks of an MPI job
  std::string mpi_collector;          // the PMPI wrapper library preloaded, empty when none
  std::string openmp_runtime;         // e.g. "libomp (replacing libgomp)", "none" (see openmp_runtime.hpp)
  std::vector<std::string> profiles;  // file names, ordered by rank
  std::map<std::string, std::string> environment;  // the PARPERF_* variables the program saw
};

// The profile files (profile.<rank>.ppf) in `directory`, ordered by rank; empty when there is none.
// With `older_than`, only those last written before that time.
std::vector<std::string> find_profiles(
    const std::filesystem::path& directory,
    std::filesystem::file_time_type older_than = std::filesystem::file_time_type::max());

// Writes `directory`/run.json atomically (a temporary file renamed over it), so a reader, or another
// rank's parperf writing the same file, never sees half a file. The temporary file is created anew
// (O_EXCL | O_NOFOLLOW): nothing planted at its name is written through. Throws std::runtime_error.
void write_run_info(const std::filesystem::path& directory, const RunInfo& info);

}  // namespace parperf::cli
