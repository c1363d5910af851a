#include "format/mapped_file.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "format/regular_file.hpp"

namespace parperf::format {

MappedFile::MappedFile(const std::filesystem::path& path) : path_(path) {
  const RegularFile file(path);  // the checks of every reader: a regular file, opened without blocking
  size_ = static_cast<std::size_t>(file.size());
  if (size_ == 0) return;  // nothing to map; the reader says the file is empty
  void* mapped = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.descriptor(), 0);
  if (mapped == MAP_FAILED) throw FileError(path, std::string("cannot map: ") + std::strerror(errno));
  data_ = static_cast<const std::uint8_t*>(mapped);
}

MappedFile::MappedFile(const std::filesystem::path& path, std::vector<std::uint8_t> bytes)
    : path_(path), size_(bytes.size()), held_(std::move(bytes)) {
  if (size_ > 0) data_ = held_.data();
}

MappedFile::~MappedFile() {
  if (data_ && held_.empty()) munmap(const_cast<std::uint8_t*>(data_), size_);
}

}  // namespace parperf::format
