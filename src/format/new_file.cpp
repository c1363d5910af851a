#include "format/new_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace parperf::format {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, int error) {
  throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(error));
}

}  // namespace

int create_new_file(const std::filesystem::path& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail(path, errno);  // a link itself, not its target
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, errno);
  return fd;
}

void write_new_file(const std::filesystem::path& path, std::string_view content) {
  const int fd = create_new_file(path);
  for (std::size_t written = 0; written < content.size();) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      fail(path, error);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) fail(path, errno);
}

}  // namespace parperf::format
