#include "format/section_scan.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "format/byte_reader.hpp"
#include "format/crc32c.hpp"
#include "format/records.hpp"

namespace parperf::format {
namespace {

// Checksums are computed in pieces of this size: the scan's memory whatever a section claims.
constexpr std::size_t kScanPiece = std::size_t{1} << 20;

template <class T>
T load(const std::uint8_t* bytes, bool swap) {
  T value;
  std::memcpy(&value, bytes, sizeof value);
  return swap ? byte_swapped(value) : value;
}

}  // namespace

std::string oversized_section(const std::string& context, std::uint64_t length, const SectionLimits& limits) {
  return "corrupt: " + context + " declares " + std::to_string(length) + " bytes, more than any " +
         limits.kind_words + " section may hold (" + std::to_string(limits.max_section_bytes) + ")";
}

void check_sections_on_disk(const RegularFile& file, const SectionLimits& limits) {
  const std::uint64_t size = file.size();
  std::uint64_t at = limits.sections_start;
  std::vector<std::uint8_t> piece;
  for (std::uint64_t number = 1;; ++number) {
    std::array<std::uint8_t, 12> header{};            // u32 type, u64 length
    if (!file.read_at(at, header.data(), 4)) return;  // cut short: the reader says so
    const auto type = load<std::uint32_t>(header.data(), limits.swap);
    if (type == kEndMarker) {
      if (size - at > 8)
        throw FormatError("corrupt: " + std::to_string(size - at - 8) +
                          " unexpected bytes after the end marker");
      return;
    }
    if (!file.read_at(at, header.data(), header.size())) return;
    const auto length = load<std::uint64_t>(header.data() + 4, limits.swap);
    const std::string context = "section " + std::to_string(number) + " (" + limits.section_name(type) + ")";
    const std::uint64_t remaining = size - at - header.size();
    if (length > remaining)
      throw FormatError("truncated: " + context + " declares " + std::to_string(length) + " bytes, " +
                        std::to_string(remaining) + " remain");
    if (length > limits.max_section_bytes) throw FormatError(oversized_section(context, length, limits));
    if (remaining - length < 4) return;  // ends inside the checksum: the reader says so

    std::uint32_t crc = crc32c_update(0, header.data(), 4);  // the type as stored
    piece.resize(static_cast<std::size_t>(std::min<std::uint64_t>(length, kScanPiece)));
    for (std::uint64_t done = 0; done < length;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(length - done, piece.size()));
      if (!file.read_at(at + header.size() + done, piece.data(), n))
        throw FileError(file.path(), "read error in " + context);
      crc = crc32c_update(crc, piece.data(), n);
      done += n;
    }
    std::array<std::uint8_t, 4> stored{};
    if (!file.read_at(at + header.size() + length, stored.data(), stored.size())) return;
    if (crc != load<std::uint32_t>(stored.data(), limits.swap))
      throw FormatError("corrupt: checksum mismatch in " + context);
    at += header.size() + length + stored.size();
  }
}

}  // namespace parperf::format
