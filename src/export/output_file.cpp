#include "export/output_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace parperf::exports {

namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
}

OutputFile::OutputFile(std::filesystem::path path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_)
    throw std::runtime_error(fmt::format("{}: cannot create: {}", path_.string(), std::strerror(errno)));
  std::setvbuf(file_, nullptr, _IOFBF, kBufferBytes);
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
}

void OutputFile::fail() {
  throw std::runtime_error(fmt::format("{}: cannot write: {}", path_.string(), std::strerror(errno)));
}

void OutputFile::close() {
  if (!file_) return;
  std::FILE* file = file_;
  file_ = nullptr;
  const bool failed = std::ferror(file) != 0;
  if (std::fclose(file) != 0 || failed) fail();
}

}  // namespace parperf::exports
