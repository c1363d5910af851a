// The memory trace file the capture runtime writes (format/memory_trace.hpp): opened at the first
// flush, one `accesses` section per flushed buffer, finished at exit. Written through a temporary
// name and renamed when complete, so a reader never sees half a trace.
#pragma once

#include <cstdint>

#include "format/memory_trace.hpp"

namespace parperf::memory {

// Appends `count` records (absolute code addresses, converted to module-relative here) as one
// section. Serialised by the caller. False when the trace cannot be written (said once on stderr).
bool write_accesses(format::MemoryAccessRecord* records, std::uint32_t count) noexcept;

// Ends the file; `dropped` accesses could not be recorded.
void close_trace(std::uint64_t dropped) noexcept;

}  // namespace parperf::memory
