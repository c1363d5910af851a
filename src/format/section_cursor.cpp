#include "format/section_cursor.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "format/byte_reader.hpp"
#include "format/crc32c.hpp"
#include "format/records.hpp"

namespace parperf::format {
namespace {

template <class T>
T load(std::span<const std::uint8_t> bytes, std::size_t at, bool swap) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return swap ? byte_swapped(value) : value;
}

}  // namespace

ContainerHeader read_container_header(std::span<const std::uint8_t> bytes, const ContainerKind& kind) {
  if (bytes.empty())
    throw FormatError(std::string("empty file (the program may have been killed before it wrote its ") +
                      kind.words + ")");
  const std::size_t magic_bytes = std::min(bytes.size(), kind.magic.size());
  if (std::memcmp(bytes.data(), kind.magic.data(), magic_bytes) != 0)
    throw FormatError(std::string("not a parperf ") + kind.words + " (unrecognised magic bytes)");

  // The header's byte order field decides how everything after it, the header's own version
  // fields included, is read; it sits after the magic and the two 16-bit version fields.
  constexpr std::size_t kByteOrderOffset = 12;
  if (bytes.size() <= kByteOrderOffset) throw FormatError("truncated: the file header is incomplete");
  const std::uint8_t order = bytes[kByteOrderOffset];
  if (order != kLittleEndian && order != kBigEndian)
    throw FormatError("corrupt header: byte order marker " + std::to_string(order));
  ContainerHeader result;
  result.swap = order != (std::endian::native == std::endian::little ? kLittleEndian : kBigEndian);
  ByteReader in(bytes, result.swap, "file header");
  result.header = in.record<FileHeader>("file header");
  const FileHeader& h = result.header;
  if (h.version_major != kind.version_major)
    throw FormatError(std::string(kind.version_words) + " version " + std::to_string(h.version_major) + "." +
                      std::to_string(h.version_minor) + " is not supported (this parperf reads version " +
                      std::to_string(kind.version_major) + ".x)");
  if (h.integer_size != kIntegerSize || h.time_size != kTimeSize)
    throw FormatError("unsupported type sizes: integers of " + std::to_string(h.integer_size) +
                      " bytes, times of " + std::to_string(h.time_size) +
                      " bytes (this version uses 8 and 8)");
  result.sections_start = in.position();
  return result;
}

bool SectionCursor::ends_with_end_marker() const {
  return bytes_.size() >= position_ + 8 &&
         load<std::uint32_t>(bytes_, bytes_.size() - 8, swap_) == kEndMarker;
}

std::optional<Section> SectionCursor::next() {
  if (cut_short_) return std::nullopt;
  const std::size_t remaining = bytes_.size() - position_;
  const auto stop = [&](std::string what) {
    cut_short_ = SectionsCutShort{sections_, position_, std::move(what)};
    return std::nullopt;
  };
  if (remaining >= 4 && load<std::uint32_t>(bytes_, position_, swap_) == kEndMarker) {
    if (remaining < 8) return stop("the file ends inside its end marker");
    const auto announced = load<std::uint32_t>(bytes_, position_ + 4, swap_);
    if (announced != sections_)
      throw FormatError("corrupt: the end marker announces " + std::to_string(announced) + " sections, " +
                        std::to_string(sections_) + " were read");
    if (remaining != 8)
      throw FormatError("corrupt: " + std::to_string(remaining - 8) +
                        " unexpected bytes after the end marker");
    position_ = bytes_.size();
    return std::nullopt;
  }
  constexpr std::size_t kHeader = 12;  // u32 type, u64 length
  if (remaining < kHeader)
    return stop("the file ends after section " + std::to_string(sections_) + " without its end marker");
  Section s;
  s.type = load<std::uint32_t>(bytes_, position_, swap_);
  const auto length = load<std::uint64_t>(bytes_, position_ + 4, swap_);
  s.offset = position_;
  s.number = sections_ + 1;
  if (length > remaining - kHeader || remaining - kHeader - length < 4)
    return stop("the file ends inside section " + std::to_string(s.number) + " (offset " +
                std::to_string(position_) + ")");
  if (length > max_section_bytes_)
    throw FormatError("corrupt: section " + std::to_string(s.number) + " (offset " +
                      std::to_string(position_) + ") declares " + std::to_string(length) +
                      " bytes, more than any " + kind_.words + " section may hold (" +
                      std::to_string(max_section_bytes_) + ")");
  s.payload = bytes_.subspan(position_ + kHeader, static_cast<std::size_t>(length));
  std::uint32_t type_bytes = s.type;
  if (swap_) type_bytes = byte_swapped(type_bytes);  // the CRC covers the type as stored
  std::uint32_t crc = crc32c_update(0, &type_bytes, sizeof type_bytes);
  crc = crc32c_update(crc, s.payload.data(), s.payload.size());
  if (crc != load<std::uint32_t>(bytes_, position_ + kHeader + s.payload.size(), swap_)) {
    // A writer leaves the length 0 until the section ends (record_writer.hpp): a section with that
    // placeholder in a file that was never closed is the one being written when the program ended.
    if (length == 0 && !ends_with_end_marker())
      return stop("the file ends inside section " + std::to_string(s.number) + " (offset " +
                  std::to_string(position_) +
                  "), which was being written (its length is still the placeholder)");
    throw FormatError("corrupt: checksum mismatch in section " + std::to_string(s.number) + " (offset " +
                      std::to_string(position_) + ")");
  }
  position_ += kHeader + s.payload.size() + 4;
  ++sections_;
  return s;
}

}  // namespace parperf::format
