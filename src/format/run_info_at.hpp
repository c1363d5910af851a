// Writing run.json into a directory held open (kept apart from run_info.hpp, which the whole
// analysis includes through run_data.hpp).
#pragma once

#include <filesystem>

#include "format/run_info.hpp"

namespace parperf::format {

// write_run_info into the directory open as `directory_fd` (`directory` names it in messages): a
// directory swapped for a symbolic link after it was opened does not redirect run.json.
void write_run_info(int directory_fd, const std::filesystem::path& directory, const RunInfo& info);

}  // namespace parperf::format
