#include "format/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>

namespace parperf::format {
namespace {

std::string errno_text(int error) { return std::generic_category().message(error); }

// A duplicate descriptor for the stream buffer, which closes what it is given.
int duplicate(const RegularFile& file) {
  const int fd = fcntl(file.descriptor(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) throw FileError(file.path(), "cannot open: " + errno_text(errno));
  return fd;
}

}  // namespace

std::string_view file_type_text(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return "a regular file";
    case S_IFDIR:
      return "a directory";
    case S_IFIFO:
      return "a FIFO";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFSOCK:
      return "a socket";
    case S_IFLNK:
      return "a symbolic link";
  }
  return "not a file";
}

RegularFile::RegularFile(const std::filesystem::path& path) : path_(path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It changes nothing
  // for a regular file.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) throw FileError(path, "cannot open: " + errno_text(errno));
  struct stat status {};
  if (fstat(fd_, &status) != 0) {
    const int error = errno;
    ::close(fd_);
    throw FileError(path, "cannot open: " + errno_text(error));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd_);
    throw FileError(path, "not a regular file (" + std::string(file_type_text(status.st_mode)) + ")");
  }
  size_ = static_cast<std::uint64_t>(status.st_size);
}

RegularFile::~RegularFile() { ::close(fd_); }

bool RegularFile::read_at(std::uint64_t offset, void* out, std::uint64_t length) const {
  if (offset > size_ || length > size_ - offset) return false;
  auto* bytes = static_cast<char*>(out);
  while (length > 0) {
    const ssize_t got = ::pread(fd_, bytes, length, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got;
    offset += static_cast<std::uint64_t>(got);
    length -= static_cast<std::uint64_t>(got);
  }
  return true;
}

std::string RegularFile::read_all(std::uint64_t max_bytes, std::string_view what) const {
  if (size_ > max_bytes)
    throw FileError(path_, std::to_string(size_) + " bytes, more than the " + std::to_string(max_bytes) +
                               " " + std::string(what) + " can have");
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size_));
  } catch (const std::bad_alloc&) {
    throw FileError(path_, std::to_string(size_) + " bytes: too large to read into memory");
  }
  // A file that shrank since it was opened yields what is left; one that grew, its first size_ bytes.
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::pread(fd_, bytes.data() + got, bytes.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(path_, "read error: " + errno_text(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

RegularFileStream::RegularFileStream(const std::filesystem::path& path)
    : file_(path), buffer_(duplicate(file_), std::ios::in), stream_(&buffer_) {}

}  // namespace parperf::format
