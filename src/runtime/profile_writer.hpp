// Writes this process's profile into the run directory: everything measured so far, with the
// intervals still open counted up to now. Async-signal-safe: no allocation, no locks, no stdio.
#pragma once

#include <cstdint>

#include "format/records.hpp"

namespace parperf::runtime {

// Returns true when the file was written. A flush (reason `flush`) returns false without writing
// while another flush runs or once the final write has begun; the final write (any other reason)
// always writes and ends up as the file, even when it interrupts or overlaps a flush.
bool write_profile(format::EndReason reason, int signal) noexcept;

// Opens the run directory (making it when missing) for the profile to be written into later,
// relative to this descriptor: a directory swapped for a link during the run does not redirect it.
// Failing is silent here; the write tries again and says why it cannot.
void open_run_directory() noexcept;

// Process facts captured at start-up for the profile header (hostname, command line).
void capture_process_facts() noexcept;

}  // namespace parperf::runtime
