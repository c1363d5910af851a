// Where parperf's libraries are, seen from one of its executables. The build tree (build/bin beside
// build/lib) and an installed tree (bin beside the install libdir, e.g. lib/x86_64-linux-gnu) keep
// the same relative layout, so a tree that is copied or moved elsewhere keeps working: no absolute
// path of the build or of the install prefix is compiled in.
#pragma once

#include <filesystem>
#include <string_view>

namespace parperf::format {

// <directory of `executable`>/<install libdir relative to the install bindir>/<file> when it exists,
// else <directory of `executable`>/../lib/<file> (the build tree) when that exists, else the first
// (for the message that it is missing).
std::filesystem::path library_beside(const std::filesystem::path& executable, std::string_view file);

}  // namespace parperf::format
