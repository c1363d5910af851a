// A thread's part of the event trace (PARPERF_TRACE): two buffers, one filled by the thread while
// the trace writer (trace_writer.hpp) compresses and writes the other.
//
// Recording an event is an append through the format's encoder into the active buffer and one
// release store that publishes it (the final write may read a buffer the thread is still filling,
// up to its last complete event). Nothing is allocated, locked or called into the kernel; only when
// a buffer is full does the thread hand it to the writer and switch to the other (trace_block_full),
// waiting only when the writer has not written that one yet — a wait it records as an event.
#pragma once

#include <atomic>
#include <cstdint>

#include "format/trace_events.hpp"
#include "parperf/parperf.h"
#include "runtime/relaxed.hpp"
#include "runtime/site_registry.hpp"

namespace parperf::runtime {

enum class TraceBufferState : std::uint32_t {
  filling = 0,  // the thread's active buffer
  full = 1,     // handed to the writer
  writing = 2,  // the writer is writing it
  free = 3,     // written: the thread may fill it again
};

struct TraceBuffer {
  std::uint8_t* bytes = nullptr;
  std::atomic<TraceBufferState> state{TraceBufferState::free};
  // The block's number among the thread's blocks: set by the thread while the buffer is free, read
  // by the writer (which orders the two buffers by it) at any time.
  Relaxed<std::uint64_t> sequence;
  std::uint64_t base_ticks = 0;  // the block's first delta counts from here
  // The complete events so far: the size of their fields column in the low 32 bits, their count in
  // the high ones (format::gather_trace_block finds the rest from these).
  std::atomic<std::uint64_t> published{0};
};

struct ThreadTrace {
  std::uint32_t thread = 0;    // ThreadState::index
  std::uint32_t capacity = 0;  // of each buffer
  TraceBuffer buffers[2];
  std::uint32_t active = 0;
  std::uint64_t next_sequence = 0;
  format::TraceBlockEncoder encoder{nullptr, 0, 0};
  Relaxed<std::uint64_t> lost_events;        // not recorded: the writer stopped, or an event too large
  Relaxed<std::uint64_t> writer_wait_ticks;  // time the thread waited for a free buffer
};

// Hands the active (full) buffer to the writer and makes the other one active, waiting for the
// writer if it has not finished with it. After the trace is closed, appends fail and are counted lost.
void trace_block_full(ThreadTrace& trace, std::uint64_t now) noexcept;

// Appends one event with `append(encoder)`; the slow path when the buffer is full.
template <class Append>
inline void trace_event(ThreadTrace& trace, std::uint64_t now, Append append) noexcept {
  if (__builtin_expect(!append(trace.encoder), 0)) {
    trace_block_full(trace, now);
    if (!append(trace.encoder)) {  // closed, or an event larger than a buffer
      trace.lost_events.add(1);
      return;
    }
  }
  trace.buffers[trace.active].published.store(
      trace.encoder.fields_size() | static_cast<std::uint64_t>(trace.encoder.event_count()) << 32,
      std::memory_order_release);
}

// Whether events of `site` at nesting `depth` go into the trace (PARPERF_TRACE_FILTER, _DEPTH).
inline bool site_traced(const parperf_site* site, std::uint32_t depth, std::uint32_t max_depth) noexcept {
  return !(__atomic_load_n(&site->state_, __ATOMIC_RELAXED) & kSiteNotTraced) && depth <= max_depth;
}

}  // namespace parperf::runtime
