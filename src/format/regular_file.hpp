// Opening the files the analysis reads (profiles, run.json, locality.json, memory traces, the ELF
// files they name): only regular files, and never more than their size. A path can name anything:
// a FIFO would block open() and read() forever, /dev/zero never ends, a directory or a socket is
// no file at all. So the file is opened without blocking, its type checked on the descriptor that is
// then read (no race with a rename), and its size at that moment bounds every read.
#pragma once

#include <ext/stdio_filebuf.h>

#include <cstdint>
#include <filesystem>
#include <istream>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "format/profile_reader.hpp"  // FormatError

namespace parperf::format {

// A file that cannot be read (missing, not a regular file, too large, a read error): what() is
// "<path>: <cause>", for the callers that name files by their path; cause() alone for those that
// name them otherwise.
class FileError : public FormatError {
 public:
  FileError(const std::filesystem::path& path, std::string cause)
      : FormatError(path.string() + ": " + cause), cause_(std::move(cause)) {}
  const std::string& cause() const { return cause_; }

 private:
  std::string cause_;
};

// What kind of file `mode` (stat's st_mode) describes, for messages: "a FIFO", "a directory", ...
std::string_view file_type_text(unsigned mode);

class RegularFile {
 public:
  // Opens `path` for reading. Throws FileError "<path>: cannot open: <cause>" or
  // "<path>: not a regular file (a FIFO)".
  explicit RegularFile(const std::filesystem::path& path);
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();

  const std::filesystem::path& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  int descriptor() const { return fd_; }

  // Reads exactly `length` bytes at `offset`; false when they are not all inside the file.
  bool read_at(std::uint64_t offset, void* out, std::uint64_t length) const;

  // The whole file. Throws FileError "<path>: <size> bytes, more than the <max_bytes> <what> can
  // have" when it is larger than `max_bytes`, and "<path>: read error: <cause>".
  std::string read_all(std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max(),
                       std::string_view what = "a file of this kind") const;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// A regular file read as a stream, for readers that go through a file in pieces (a memory trace can
// be far larger than memory). Read errors throw std::ios_base::failure, as std::ifstream's do.
class RegularFileStream {
 public:
  explicit RegularFileStream(const std::filesystem::path& path);  // throws like RegularFile's
  std::istream& stream() { return stream_; }

 private:
  RegularFile file_;
  __gnu_cxx::stdio_filebuf<char> buffer_;  // reads a duplicate of file_'s descriptor
  std::istream stream_;
};

}  // namespace parperf::format
