// The per-rank files of a run directory: profile.<rank>.ppf (names in run_directory.hpp) and the
// event traces, trace.<rank>.ppt (trace_records.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::format {

// The rank in "profile.<rank>.ppf"; nothing when the name is not a profile file's.
std::optional<std::int64_t> rank_of_profile_name(std::string_view name);

// The rank in "trace.<rank>.ppt"; nothing when the name is not an event trace's.
std::optional<std::int64_t> rank_of_trace_name(std::string_view name);

// The profile files in `directory` (regular files only), ordered by rank; empty when there is none.
// With `older_than`, only those last written before that time.
std::vector<std::string> find_profiles(
    const std::filesystem::path& directory,
    std::filesystem::file_time_type older_than = std::filesystem::file_time_type::max());

// The event trace files in `directory` (regular files only), ordered by rank.
std::vector<std::string> find_traces(const std::filesystem::path& directory);

// A file with a profile's or a trace's name that find_profiles or find_traces leaves out, and why:
// "a FIFO", "a directory", "a symbolic link to nothing". Readers never open those (a FIFO would
// block), but a user must learn that a rank's data was not read.
struct LeftOutFile {
  std::string name;
  std::string why;
};
std::vector<LeftOutFile> profiles_left_out(const std::filesystem::path& directory);
std::vector<LeftOutFile> traces_left_out(const std::filesystem::path& directory);

}  // namespace parperf::format
