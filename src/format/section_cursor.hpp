// Walks the sections of a file in the profile's container (docs/format.md: file header, then
// sections of type, length, payload and CRC-32C, then the end marker and the section count) held in
// memory, checking each section's length against the bytes and its checksum before handing it out.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "format/records.hpp"

namespace parperf::format {

// What a file of the container says of itself.
struct ContainerHeader {
  FileHeader header;
  bool swap = false;  // the file's byte order is not this machine's
  std::size_t sections_start = 0;
};

// A file of one kind ("profile", "event trace"): its magic and the major version this parperf reads.
struct ContainerKind {
  const char* words;          // "profile": the file is "not a parperf profile"
  const char* version_words;  // "format": "format version 2.0 is not supported"
  std::array<std::uint8_t, 8> magic;
  std::uint16_t version_major;
};

// Checks and reads the file header. Throws FormatError for an empty or foreign file, an unknown byte
// order, another major version or other integer widths.
ContainerHeader read_container_header(std::span<const std::uint8_t> bytes, const ContainerKind& kind);

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
  // `bytes` is the whole file; the sections begin at `start` (after the file header). A section that
  // declares more than `max_section_bytes` is refused before its checksum is computed.
  SectionCursor(std::span<const std::uint8_t> bytes, bool swap, std::size_t start, const ContainerKind& kind,
                std::uint64_t max_section_bytes)
      : bytes_(bytes), swap_(swap), position_(start), kind_(kind), max_section_bytes_(max_section_bytes) {}

  // The next section; nothing at the end marker (its count checked, nothing after it) or when the
  // file is cut short (cut_short() says where), also inside a section that still has the writer's
  // placeholder length (0) in a file without its end marker: the program ended while writing it.
  // Throws FormatError for a section longer than the format allows, a checksum mismatch, a wrong
  // section count or bytes after the end marker.
  std::optional<Section> next();
  const std::optional<SectionsCutShort>& cut_short() const { return cut_short_; }

 private:
  // Whether the file's last 8 bytes, after the current position, are an end marker and a count.
  bool ends_with_end_marker() const;

  std::span<const std::uint8_t> bytes_;
  bool swap_;
  std::size_t position_;
  ContainerKind kind_;
  std::uint64_t max_section_bytes_;
  std::size_t sections_ = 0;
  std::optional<SectionsCutShort> cut_short_;
};

}  // namespace parperf::format
