// A RecordWriter sink over a file descriptor with a static buffer: no allocation and only
// async-signal-safe calls (write, pwrite), so a profile can be written from a fatal-signal handler.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace parperf::runtime {

// open(2) for the runtime's own files: close-on-exec (the program's children never inherit them)
// and never descriptor 0, 1 or 2, even when the program closed its standard streams (what it
// later writes to stdout must not land in our file). Async-signal-safe.
int open_private(const char* path, int flags, mode_t mode = 0) noexcept;

// mkdir -p, with async-signal-safe calls only; 0 or an errno. A directory someone else owns is
// refused (EPERM): it may hold their links to files we would then overwrite.
int make_directories(const char* dir) noexcept;

// open_private relative to the directory `directory_fd`.
int open_private_at(int directory_fd, const char* name, int flags, mode_t mode = 0) noexcept;

class FileSink {
 public:
  FileSink(int fd, std::uint8_t* buffer, std::size_t capacity) noexcept
      : fd_(fd), buffer_(buffer), capacity_(capacity) {}

  void write(const void* data, std::size_t size) noexcept;
  std::uint64_t position() const noexcept { return flushed_ + used_; }
  void patch(std::uint64_t position, const void* data, std::size_t size) noexcept;
  bool failed() const noexcept { return error_ != 0; }
  int error() const noexcept { return error_; }
  void flush() noexcept;

 private:
  void write_all(const std::uint8_t* data, std::size_t size) noexcept;

  int fd_;
  std::uint8_t* buffer_;
  std::size_t capacity_;
  std::size_t used_ = 0;
  std::uint64_t flushed_ = 0;
  int error_ = 0;
};

}  // namespace parperf::runtime
