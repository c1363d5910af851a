// Creating the files the commands write beside a run (locality.json, pictures, memory.ppm, JSON):
// the same rule as the runtime's profiles and traces. Whatever is at the path (an earlier run's file,
// or a symbolic link another user planted, say to a file only root may write) is removed, never
// opened; the file is then created with O_EXCL | O_NOFOLLOW, so that a link put back in between
// makes the creation fail instead of writing through it.
#pragma once

#include <filesystem>
#include <string_view>

namespace parperf::format {

// A new file at `path`, open for writing (mode 0666 less the umask). Throws std::runtime_error
// "cannot write <path>: <cause>".
int create_new_file(const std::filesystem::path& path);

// `content` in a new file at `path` (create_new_file). Throws std::runtime_error likewise.
void write_new_file(const std::filesystem::path& path, std::string_view content);

}  // namespace parperf::format
