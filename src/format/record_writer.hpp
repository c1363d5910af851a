// Writes profile files record by record into a Sink, with no allocation: the runtime uses it from
// exit handlers and from fatal-signal handlers.
//
// A Sink provides:
//   void write(const void* data, std::size_t size);
//   std::uint64_t position() const;                              // bytes written so far
//   void patch(std::uint64_t position, const void* data, std::size_t size);  // overwrite earlier bytes
//   bool failed() const;
// Section lengths are not known before the payload is produced (the runtime streams live data), so
// the writer leaves a placeholder and patches it when the section ends. The section CRC covers the
// section type and the payload, so a flipped type is caught too.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "format/crc32c.hpp"
#include "format/records.hpp"

namespace parperf::format {

inline constexpr std::uint8_t host_byte_order() {
  return std::endian::native == std::endian::little ? kLittleEndian : kBigEndian;
}

template <class Sink>
class RecordWriter {
 public:
  explicit RecordWriter(Sink& sink) : sink_(sink) {}

  void file_header() { file_header(FileHeader{}); }
  // Another file kind in the same container (a memory trace): its own magic and version.
  void file_header(FileHeader header) {
    header.byte_order = host_byte_order();
    record_raw(header);
  }

  void begin_section(SectionType type) { begin_section(static_cast<std::uint32_t>(type)); }
  void begin_section(std::uint32_t type) {
    SectionHeader header{type, 0};
    section_start_ = sink_.position();
    record_raw(header);
    payload_start_ = sink_.position();
    crc_ = crc32c_update(0, &header.type, sizeof header.type);
    in_section_ = true;
  }

  void end_section() {
    const std::uint64_t length = sink_.position() - payload_start_;
    sink_.patch(section_start_ + sizeof(std::uint32_t), &length, sizeof length);
    in_section_ = false;
    put(crc_);
    ++sections_;
  }

  // The end marker and the number of sections: a reader that misses it knows the file is truncated.
  void finish() {
    put(kEndMarker);
    put(sections_);
  }

  // Records whose memory layout is their file layout (no padding, host byte order), in one piece:
  // the memory trace's accesses, millions of them.
  template <class Record>
  void records_as_bytes(const Record* records, std::size_t count) {
    static_assert(std::has_unique_object_representations_v<Record>, "no padding: the bytes are the record");
    bytes(records, count * sizeof(Record));
  }

  // Bytes of a section whose content is encoded elsewhere (a trace block's events), as they are.
  void payload(const void* data, std::size_t size) { bytes(data, size); }

  template <class Record>
  void record(const Record& r) {
    Record copy = r;  // `fields` takes mutable references so one list serves reading too
    fields(copy, [this](auto& field) { this->put_field(field); });
  }

 private:
  template <class Record>
  void record_raw(const Record& r) {
    Record copy = r;
    fields(copy, [this](auto& field) { this->put(field); });
  }

  template <class T>
  void put_field(const T& value) {
    if constexpr (is_text_v<T>) {
      const auto length = static_cast<std::uint32_t>(value.size());
      put(length);
      bytes(value.data(), value.size());
    } else if constexpr (std::is_enum_v<T>) {
      put(static_cast<std::underlying_type_t<T>>(value));
    } else {
      put(value);
    }
  }

  template <class T>
  void put(const T& value) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "fields have explicit integer widths");
    bytes(&value, sizeof value);
  }

  void bytes(const void* data, std::size_t size) {
    if (in_section_) crc_ = crc32c_update(crc_, data, size);
    sink_.write(data, size);
  }

  Sink& sink_;
  std::uint64_t section_start_ = 0;
  std::uint64_t payload_start_ = 0;
  std::uint32_t crc_ = 0;
  std::uint32_t sections_ = 0;
  bool in_section_ = false;
};

}  // namespace parperf::format
