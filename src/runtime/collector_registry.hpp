// What collectors registered with the core (collector_api.h, collector.hpp): their profile
// sections, their descriptions of the process, and the libraries whose threads are theirs. Tables
// of fixed size, filled at run time by the collectors and read by the profile writer and the
// thread-start hook without a lock; nothing is registered by a global constructor.
#pragma once

#include "format/record_writer.hpp"
#include "format/records.hpp"
#include "runtime/clock.hpp"
#include "runtime/collector_api.h"
#include "runtime/file_sink.hpp"

// What a section callback writes through: the profile being written and its clock.
struct parperf_section_writer {
  parperf::format::RecordWriter<parperf::runtime::FileSink>* records;
  const parperf::runtime::TickConverter* clock;
};

namespace parperf::runtime {

// Fills in what a collector knows of the process (the profile's process record).
using ProcessDescriber = void (*)(format::ProcessRecord& process) noexcept;

bool register_collector_section(std::uint32_t section_type, parperf_section_callback write,
                                void* context) noexcept;
bool register_process_describer(ProcessDescriber describe) noexcept;
bool register_foreign_thread_libraries(const char* const* prefixes) noexcept;

// The profile writer's side: every registered section, in registration order; then the process.
void write_collector_sections(format::RecordWriter<FileSink>& writer, const TickConverter& clock) noexcept;
void describe_process(format::ProcessRecord& process) noexcept;

// Whether `library`, the file name (no directory) of a thread's start routine's module, belongs to
// a collector's runtime (parperf_collector_foreign_threads).
bool is_foreign_thread_library(const char* library) noexcept;

}  // namespace parperf::runtime
