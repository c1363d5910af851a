// Writing a whole text file the commands produce (pictures, JSON beside a run): one call that
// either writes all of it or throws std::runtime_error "cannot write <path>: <cause>".
#pragma once

#include <filesystem>
#include <string>

namespace parperf::cli {

void write_text_file(const std::filesystem::path& path, const std::string& content);

}  // namespace parperf::cli
