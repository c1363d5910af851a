// An input stream over a pipe's read end, optionally copying every byte it reads to a file: how
// `parperf locality` scores a running program's accesses as they come (and keeps the stream with
// --save-trace) without a trace file in between.
#pragma once

#include <cstdint>
#include <cstdio>
#include <streambuf>
#include <vector>

namespace parperf::cli {

class PipeStreamBuffer : public std::streambuf {
 public:
  // Reads `fd` (not closed here); writes a copy to `copy` when it is not null.
  PipeStreamBuffer(int fd, std::FILE* copy);

  // Reads and discards the rest of the pipe, so that a writer blocked on it can go on to its end.
  void drain();

  bool copy_failed() const { return copy_failed_; }
  std::uint64_t bytes_read() const { return bytes_read_; }

 protected:
  int_type underflow() override;

 private:
  int fd_;
  std::FILE* copy_;
  bool copy_failed_ = false;
  std::uint64_t bytes_read_ = 0;
  std::vector<char> buffer_;
};

}  // namespace parperf::cli
