// A regular file mapped into memory read-only: a trace reader walks gigabytes of blocks through
// the page cache instead of copying them into its own memory, and decodes one block at a time. Or
// the bytes of a file received in memory (a parallel analysis's share, sent by the process that read
// it), held and named by the file they stand for, so that they are read the same way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace parperf::format {

class MappedFile {
 public:
  // Throws FileError (regular_file.hpp) when the file cannot be opened, is not a regular file, or
  // cannot be mapped.
  explicit MappedFile(const std::filesystem::path& path);
  // Holds `bytes` in memory as the contents of `path`.
  MappedFile(const std::filesystem::path& path, std::vector<std::uint8_t> bytes);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  const std::filesystem::path& path() const { return path_; }
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  std::filesystem::path path_;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::vector<std::uint8_t> held_;  // the bytes received in memory; empty for a mapped file
};

}  // namespace parperf::format
