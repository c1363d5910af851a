#include "format/section_cursor.hpp"

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
  s.payload = bytes_.subspan(position_ + kHeader, static_cast<std::size_t>(length));
  std::uint32_t type_bytes = s.type;
  if (swap_) type_bytes = byte_swapped(type_bytes);  // the CRC covers the type as stored
  std::uint32_t crc = crc32c_update(0, &type_bytes, sizeof type_bytes);
  crc = crc32c_update(crc, s.payload.data(), s.payload.size());
  if (crc != load<std::uint32_t>(bytes_, position_ + kHeader + s.payload.size(), swap_))
    throw FormatError("corrupt: checksum mismatch in section " + std::to_string(s.number) + " (offset " +
                      std::to_string(position_) + ")");
  position_ += kHeader + s.payload.size() + 4;
  ++sections_;
  return s;
}

}  // namespace parperf::format
