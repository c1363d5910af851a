// Writing records into a collector's own profile section (collector_api.h): format::RecordWriter
// over the section writer the core hands the section callback, so a collector serialises its
// records with the same code, and into the same bytes, as the core serialises its own.
//
//   void write_my_section(parperf_section_writer* writer, void*) {
//     parperf::runtime::SectionSink sink(writer);
//     parperf::runtime::SectionRecords records(sink);
//     records.record(my_record);
//   }
//
// The core has begun the section and ends it after the callback: the callback writes records only.
// The collector's library links src/format/crc32c.cpp, which RecordWriter refers to.
#pragma once

#include <cstddef>
#include <cstdint>

#include "format/record_writer.hpp"
#include "runtime/collector_api.h"

namespace parperf::runtime {

class SectionSink {
 public:
  explicit SectionSink(parperf_section_writer* writer) noexcept : writer_(writer) {}

  void write(const void* data, std::size_t size) noexcept {
    parperf_section_write(writer_, data, size);
    written_ += size;
  }
  std::uint64_t position() const noexcept { return written_; }
  void patch(std::uint64_t, const void*, std::size_t) noexcept {}  // records never patch: sections do
  bool failed() const noexcept { return false; }                   // the core's sink keeps the error

 private:
  parperf_section_writer* writer_;
  std::uint64_t written_ = 0;
};

using SectionRecords = format::RecordWriter<SectionSink>;

}  // namespace parperf::runtime
