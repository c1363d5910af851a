#include "cli/temporary_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/core.h>

namespace parperf::cli {

std::filesystem::path create_temporary_file(const std::string& pattern, const std::string& text) {
  std::string path = (std::filesystem::temp_directory_path() / pattern).string();
  const auto unique = pattern.rfind("XXXXXX");
  if (unique == std::string::npos) throw std::logic_error("create_temporary_file: no XXXXXX in " + pattern);
  const int fd = mkstemps(path.data(), static_cast<int>(pattern.size() - unique - 6));
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create {}: {}", path, std::strerror(errno)));
  const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (close(fd) != 0 || !written) {
    unlink(path.c_str());
    throw std::runtime_error(fmt::format("cannot write {}", path));
  }
  return path;
}

}  // namespace parperf::cli
