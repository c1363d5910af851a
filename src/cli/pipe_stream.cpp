#include "cli/pipe_stream.hpp"

#include <unistd.h>

#include <cerrno>

namespace parperf::cli {

PipeStreamBuffer::PipeStreamBuffer(int fd, std::FILE* copy)
    : fd_(fd), copy_(copy), buffer_(std::size_t{1} << 20) {
  setg(buffer_.data(), buffer_.data(), buffer_.data());
}

PipeStreamBuffer::int_type PipeStreamBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  ssize_t n = 0;
  do {
    n = ::read(fd_, buffer_.data(), buffer_.size());
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return traits_type::eof();
  bytes_read_ += static_cast<std::uint64_t>(n);
  if (copy_ != nullptr && !copy_failed_ &&
      std::fwrite(buffer_.data(), 1, static_cast<std::size_t>(n), copy_) != static_cast<std::size_t>(n))
    copy_failed_ = true;
  setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
  return traits_type::to_int_type(*gptr());
}

void PipeStreamBuffer::drain() {
  setg(buffer_.data(), buffer_.data(), buffer_.data());
  while (underflow() != traits_type::eof()) setg(buffer_.data(), buffer_.data(), buffer_.data());
}

}  // namespace parperf::cli
