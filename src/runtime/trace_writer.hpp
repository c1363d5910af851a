// The event trace's file (PARPERF_TRACE): `trace.<rank>.ppt` beside the profile, or first in a
// node-local directory (PARPERF_TRACE_DIR) from which `parperf run` moves it into the run directory.
//
// One background thread, the writer, takes the blocks the program's threads hand over
// (thread_trace.hpp), compresses them with zstd and appends them to the file, so the program never
// waits on the disk unless the writer falls behind. It sleeps on a futex while there is nothing to
// write; a thread that fills a buffer wakes it only when it sleeps (one system call per buffer, not
// per event). The writer is the runtime's own thread: it is never measured, blocks every signal and
// allocates only private memory (its zstd context lives in a fixed workspace).
//
// At the end (close_trace, after the final profile; also from a fatal-signal handler) the writer
// is stopped and the remaining blocks, including the part of each thread's active buffer filled so
// far, are written by the closing thread, then the clock calibration and the end marker. A program
// killed with SIGKILL leaves the blocks written so far: a reader reads up to the last one.
//
// A write that fails (a full disk, a removed directory) stops the trace with one message; the
// program runs on, and its profile is written as always.
#pragma once

#include <cstdint>

#include "runtime/thread_trace.hpp"

namespace parperf::runtime {

// Opens the trace and starts the writer (at initialisation, when PARPERF_TRACE is on). False, after
// one message saying why, when the trace cannot be written: the profile is measured all the same.
bool start_trace() noexcept;

// The trace of a newly registered thread: its two buffers, in private memory. Null when tracing is
// off (or out of memory: that thread is then not traced, which the message says).
ThreadTrace* attach_thread_trace(std::uint32_t thread_index) noexcept;

// Writes the rest of the trace and closes it; once. Async-signal-safe.
void close_trace() noexcept;

}  // namespace parperf::runtime
