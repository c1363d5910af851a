// Checks the sections of a container file (docs/format.md) where it lies on disk, before a reader
// reads the file into memory: a damaged or planted length (a sparse file that claims gigabytes) must
// be refused by its header, not after the reader has allocated and checksummed what it claims. Each
// declared length is bounded by the bytes that remain and by the largest section the format allows;
// each checksum is computed in bounded pieces, so memory stays small whatever the file's size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "format/regular_file.hpp"

namespace parperf::format {

// What the scan knows of the file's kind: where its sections start and its largest section.
struct SectionLimits {
  std::uint64_t sections_start = 0;
  bool swap = false;
  std::uint64_t max_section_bytes = 0;
  const char* kind_words = "";  // "profile": "more than any profile section may hold"
  std::function<std::string(std::uint32_t)> section_name;  // "thread", "unknown type 77"
};

// Throws FormatError (its message names no file) for a section that declares more bytes than remain
// or than `max_section_bytes`, a checksum mismatch, or bytes after the end marker. A file that ends
// early is left to the reader, which says how much of it it could use.
void check_sections_on_disk(const RegularFile& file, const SectionLimits& limits);

// The message for a section longer than the format allows: "corrupt: section 2 (thread) declares
// 3221225472 bytes, more than any profile section may hold (1073741824)".
std::string oversized_section(const std::string& context, std::uint64_t length, const SectionLimits& limits);

}  // namespace parperf::format
