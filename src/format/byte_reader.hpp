// Reading the records of a section's payload, bounded and in the file's byte order: shared by the
// profile reader and the memory trace reader. Throws FormatError for what does not fit.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "format/profile_reader.hpp"  // FormatError
#include "format/records.hpp"

namespace parperf::format {

template <class T>
T byte_swapped(T value) {
  if constexpr (sizeof(T) == 1)
    return value;
  else if constexpr (sizeof(T) == 2)
    return static_cast<T>(__builtin_bswap16(static_cast<std::uint16_t>(value)));
  else if constexpr (sizeof(T) == 4)
    return static_cast<T>(__builtin_bswap32(static_cast<std::uint32_t>(value)));
  else
    return static_cast<T>(__builtin_bswap64(static_cast<std::uint64_t>(value)));
}

// A bounded cursor over bytes in the file's byte order.
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> bytes, bool swap, std::string context)
      : bytes_(bytes), swap_(swap), context_(std::move(context)) {}

  std::size_t remaining() const { return bytes_.size() - position_; }
  std::size_t position() const { return position_; }

  void need(std::size_t size, const char* what) const {
    if (remaining() < size)
      throw FormatError("truncated: " + (context_.empty() ? "" : context_ + ": ") + what + " needs " +
                        std::to_string(size) + " bytes, " + std::to_string(remaining()) + " remain");
  }

  template <class T>
  T get(const char* what) {
    need(sizeof(T), what);
    T value;
    std::memcpy(&value, bytes_.data() + position_, sizeof value);
    position_ += sizeof value;
    return swap_ ? byte_swapped(value) : value;
  }

  Str get_string(const char* what) {
    const auto length = get<std::uint32_t>(what);
    need(length, what);
    Str s(reinterpret_cast<const char*>(bytes_.data() + position_), length);
    position_ += length;
    return s;
  }

  std::span<const std::uint8_t> take(std::size_t size, const char* what) {
    need(size, what);
    auto part = bytes_.subspan(position_, size);
    position_ += size;
    return part;
  }

  template <class Record>
  Record record(const char* what) {
    Record r{};
    fields(r, [&](auto& field) {
      using T = std::decay_t<decltype(field)>;
      if constexpr (is_text_v<T>)
        field = T(get_string(what));
      else if constexpr (std::is_enum_v<T>)
        field = static_cast<T>(get<std::underlying_type_t<T>>(what));  // the decoder checks the value
      else
        field = get<T>(what);
    });
    return r;
  }

  // A count of records that follow must fit in what remains, or it is a lie.
  void check_count(std::uint64_t count, std::size_t min_size, const char* what) const {
    if (count > remaining() / min_size)
      throw FormatError("corrupt: " + context_ + ": " + what + " count " + std::to_string(count) +
                        " cannot fit in the " + std::to_string(remaining()) + " bytes that remain");
  }

  const std::string& context() const { return context_; }
  void set_context(std::string context) { context_ = std::move(context); }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t position_ = 0;
  bool swap_;
  std::string context_;
};

}  // namespace parperf::format
