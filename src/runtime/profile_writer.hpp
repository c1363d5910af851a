// Writes this process's profile into the run directory: everything measured so far, with the
// intervals still open counted up to now. Async-signal-safe: no allocation, no locks, no stdio.
#pragma once

#include <cstdint>

#include "format/records.hpp"

namespace parperf::runtime {

// The OpenMP runtime's version string, for the profile (the OMPT collector calls it once).
void note_openmp_runtime(const char* version) noexcept;

// Returns true when the file was written. Concurrent calls (a signal during a flush) do not
// interleave: the later one returns false without writing.
bool write_profile(format::EndReason reason, int signal) noexcept;

// Process facts captured at start-up for the profile header (hostname, command line).
void capture_process_facts() noexcept;

}  // namespace parperf::runtime
