#include "format/installed_layout.hpp"

#include <system_error>

// The install libdir relative to the install bindir ("../lib/x86_64-linux-gnu"), from CMake's
// GNUInstallDirs (the top-level CMakeLists.txt); set for this file alone, so that changing the
// install layout recompiles nothing else.
#ifndef PARPERF_LIBDIR_FROM_BINDIR
#error "PARPERF_LIBDIR_FROM_BINDIR must name the install libdir relative to the bindir"
#endif

namespace parperf::format {

std::filesystem::path library_beside(const std::filesystem::path& executable, std::string_view file) {
  const auto directory = executable.parent_path();
  const auto installed = (directory / PARPERF_LIBDIR_FROM_BINDIR / file).lexically_normal();
  std::error_code error;
  if (std::filesystem::exists(installed, error)) return installed;
  const auto built = (directory / ".." / "lib" / file).lexically_normal();
  if (std::filesystem::exists(built, error)) return built;
  return installed;
}

}  // namespace parperf::format
