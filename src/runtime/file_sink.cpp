#include "runtime/file_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/file_size_signal.hpp"

namespace parperf::runtime {

namespace {

int above_standard_streams(int fd) noexcept {
  if (fd >= 0 && fd <= 2) {
    const int above = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    fd = above;
  }
  return fd;
}

}  // namespace

int open_private(const char* path, int flags, mode_t mode) noexcept {
  return above_standard_streams(open(path, flags | O_CLOEXEC, mode));
}

int open_private_at(int directory_fd, const char* name, int flags, mode_t mode) noexcept {
  return above_standard_streams(openat(directory_fd, name, flags | O_CLOEXEC, mode));
}

int make_directories(const char* dir) noexcept {
  char path[4096];
  const std::size_t length = std::strlen(dir);
  if (length == 0 || length >= sizeof path) return ENAMETOOLONG;
  std::memcpy(path, dir, length + 1);
  for (std::size_t i = 1; i <= length; ++i) {
    if (path[i] != '/' && path[i] != '\0') continue;
    const char saved = path[i];
    path[i] = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return errno;
    path[i] = saved;
  }
  struct stat st {};
  if (stat(dir, &st) != 0) return errno;
  if (!S_ISDIR(st.st_mode)) return ENOTDIR;
  // A directory someone else owns may hold their links to files we would then overwrite.
  return st.st_uid == geteuid() ? 0 : EPERM;
}

void FileSink::write_all(const std::uint8_t* data, std::size_t size) noexcept {
  const FileSizeSignalHeld no_signal;  // past RLIMIT_FSIZE: EFBIG, never SIGXFSZ in the program
  while (size > 0 && !error_) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    flushed_ += static_cast<std::uint64_t>(n);
  }
}

void FileSink::flush() noexcept {
  write_all(buffer_, used_);
  used_ = 0;
}

void FileSink::write(const void* data, std::size_t size) noexcept {
  if (size == 0) return;  // an empty string's data may be null, which memcpy must not see
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  if (used_ + size > capacity_) flush();
  if (size > capacity_) {
    write_all(bytes, size);
    return;
  }
  std::memcpy(buffer_ + used_, bytes, size);
  used_ += size;
}

void FileSink::patch(std::uint64_t position, const void* data, std::size_t size) noexcept {
  if (position >= flushed_) {
    std::memcpy(buffer_ + (position - flushed_), data, size);
    return;
  }
  if (position + size > flushed_) flush();  // straddles the buffer: make it all file-resident
  const FileSizeSignalHeld no_signal;
  const ssize_t n = ::pwrite(fd_, data, size, static_cast<off_t>(position));
  if (n != static_cast<ssize_t>(size) && !error_) error_ = n < 0 ? errno : EIO;
}

}  // namespace parperf::runtime
