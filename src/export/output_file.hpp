// A file an export writes, buffered; every failure (cannot create, disk full) is an
// std::runtime_error naming the file.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace parperf::exports {

class OutputFile {
 public:
  explicit OutputFile(std::filesystem::path path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view bytes) {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail();
  }
  // Flushes and closes; throws naming the file when anything written was lost.
  void close();
  const std::filesystem::path& path() const { return path_; }

 private:
  [[noreturn]] void fail();
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
};

}  // namespace parperf::exports
