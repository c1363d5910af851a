// Walks the sections of a file in the profile's container (docs/format.md: file header, then
// sections of type, length, payload and CRC-32C, then the end marker and the section count) held in
// memory, checking each section's length against the bytes and its checksum before handing it out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace parperf::format {

struct Section {
  std::uint32_t type = 0;
  std::span<const std::uint8_t> payload;
  std::size_t offset = 0;  // of the section's type field in the file
  std::size_t number = 0;  // 1 for the first section
};

// What stopped the walk early: the file ends before the end marker or in the middle of a section.
struct SectionsCutShort {
  std::size_t complete_sections = 0;
  std::size_t offset = 0;  // where the incomplete part begins
  std::string what;        // "the file ends after section 3 without its end marker"
};

class SectionCursor {
 public:
  // `bytes` is the whole file; the sections begin at `start` (after the file header).
  SectionCursor(std::span<const std::uint8_t> bytes, bool swap, std::size_t start)
      : bytes_(bytes), swap_(swap), position_(start) {}

  // The next section; nothing at the end marker (its count checked, nothing after it) or when the
  // file is cut short (cut_short() says where). Throws FormatError for a checksum mismatch, a wrong
  // section count or bytes after the end marker.
  std::optional<Section> next();
  const std::optional<SectionsCutShort>& cut_short() const { return cut_short_; }

 private:
  std::span<const std::uint8_t> bytes_;
  bool swap_;
  std::size_t position_;
  std::size_t sections_ = 0;
  std::optional<SectionsCutShort> cut_short_;
};

}  // namespace parperf::format
