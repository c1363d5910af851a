// A RecordWriter sink that collects the file in memory (tests, tools that build profiles).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace parperf::format {

class MemorySink {
 public:
  void write(const void* data, std::size_t size) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes_.insert(bytes_.end(), p, p + size);
  }
  std::uint64_t position() const { return bytes_.size(); }
  void patch(std::uint64_t position, const void* data, std::size_t size) {
    std::memcpy(bytes_.data() + position, data, size);
  }
  bool failed() const { return false; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
};

}  // namespace parperf::format
