// How the runtime gets into a program that was not linked against it: the runtime library is put in
// front of LD_PRELOAD and configured through PARPERF_* environment variables.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace parperf::cli {

// $PARPERF_LIBRARY when set, else libparperf.so in the libdir beside this executable's directory
// (format/installed_layout.hpp: the install libdir, or build/lib). Throws std::runtime_error naming the path
// when the library is not there.
std::filesystem::path find_runtime_library();

// The environment of the measured program, as "NAME=value" entries: `parent` (environ) with
// `libraries` (the runtime, then any OpenMP runtime substituted for the program's) prepended to
// LD_PRELOAD in this order, before what the user preloads, and `settings` (name, value) replacing
// inherited variables of the same names. An inherited PARPERF_PID is dropped: the child sets it to
// its own pid.
std::vector<std::string> child_environment(const char* const* parent,
                                           const std::vector<std::filesystem::path>& libraries,
                                           const std::vector<std::pair<std::string, std::string>>& settings);

inline constexpr const char* kPidVariable = "PARPERF_PID";

}  // namespace parperf::cli
