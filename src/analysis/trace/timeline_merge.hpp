// The events of every thread of every rank as one stream, in the order of corrected time: each
// rank's time stamps are put on rank 0's clock (clock_correction.hpp, DESIGN.md section 5) and the
// threads' streams, each already in its own order, are merged k ways. Only one event per stream is
// held at a time, so the memory needed grows with the number of threads, never with the trace's
// length; what a stream holds behind it is its own affair (a decoded file, or blocks read lazily).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/clock_correction.hpp"
#include "format/trace_events.hpp"
#include "format/trace_file.hpp"

namespace parperf::analysis {

struct ClockRepair;  // clock_repair.hpp

// One thread's events, in the order the thread recorded them, with their times in ns since its
// process's start on the process's own clock.
class ThreadEvents {
 public:
  ThreadEvents(std::int64_t rank, std::uint32_t thread) : rank_(rank), thread_(thread) {}
  virtual ~ThreadEvents() = default;
  // Puts the next event and its local time into `event` and `local_ns`; false at the end. (Filled
  // in place: the merge keeps one event per stream and never moves it.)
  virtual bool next(double& local_ns, format::TraceEvent& event) = 0;
  std::int64_t rank() const { return rank_; }
  std::uint32_t thread() const { return thread_; }

 private:
  std::int64_t rank_;
  std::uint32_t thread_;
};

struct TimelineEvent {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  double local_ns = 0;  // on the rank's own clock, since its start
  double time_ns = 0;   // corrected: on rank 0's clock, since rank 0's start
  format::TraceEvent event;
  std::uint64_t index = 0;  // its place in its thread's stream, from 0: what names it (activity_graph.hpp)
};

// A set of event kinds (bit k: TraceEventKind k).
using EventKinds = std::uint32_t;
inline constexpr EventKinds kEveryEventKind = ~EventKinds{0};
constexpr EventKinds event_kind_bit(format::TraceEventKind kind) {
  return EventKinds{1} << static_cast<unsigned>(kind);
}

// Calls `emit` for every event of every stream, by corrected time; events at the same corrected
// time come by rank, then thread, then their order in their stream. A stream whose corrected times
// go back (a drift faster than time itself, which no real clock has) is merged as it comes.
// With `repair` (clock_repair.hpp), every event's corrected time is its repaired one. Only events
// of the kinds in `kinds` are merged and given; the others are passed over in their stream (still
// counted in the index of the events after them), which spares their place in the merge.
void merge_timeline(std::vector<std::unique_ptr<ThreadEvents>>& streams, const ClockCorrection& clocks,
                    const std::function<void(const TimelineEvent&)>& emit,
                    const ClockRepair* repair = nullptr, EventKinds kinds = kEveryEventKind);

// Nanoseconds per tick of a decoded trace: its calibration over the whole run (its clock record), or
// the estimate at start of its process record when it was cut short.
double ns_per_tick(const format::TraceFile& trace);

// A trace's ticks as ns since its process's start on the process's own clock: its calibration, and a
// test's injected clock error as its profile applied it (trace_records.hpp). What the streams below
// give as `local_ns`, and what the trace's samples are timed by.
class TraceClock {
 public:
  explicit TraceClock(const format::TraceFile& trace)
      : origin_(static_cast<double>(trace.process.origin_ticks)),
        ns_per_tick_(ns_per_tick(trace)),
        skew_rate_(1.0 + static_cast<double>(trace.process.skew_drift_ppb) * 1e-9),
        skew_offset_(static_cast<double>(trace.process.skew_offset_ns)) {}
  double local_ns(std::uint64_t ticks) const {
    return (static_cast<double>(ticks) - origin_) * ns_per_tick_ * skew_rate_ + skew_offset_;
  }

 private:
  double origin_, ns_per_tick_, skew_rate_, skew_offset_;
};

// A pass that rides on another's decoding: sees every event of a list of streams (all_thread_streams)
// as that pass reads them, the kinds it passes over too; streams interleave, each in its own order.
// The node counting (node_counting.hpp) rides on the matching's (one decoding of every event fewer).
class StreamObserver {
 public:
  virtual ~StreamObserver() = default;
  virtual void begin(const std::vector<std::unique_ptr<ThreadEvents>>& streams) = 0;
  virtual void event(std::size_t stream, const format::TraceEvent& event) = 0;
  // Every stream was read to its end (not called when the pass stopped at an error).
  virtual void end() = 0;
};

// `streams`, each wrapped so that `observer` sees its events as they are read.
void observe_streams(std::vector<std::unique_ptr<ThreadEvents>>& streams, StreamObserver& observer);

// The threads' streams of one decoded trace: each thread's blocks in sequence order, ticks turned
// into ns with the trace's calibration (its clock record, else the estimate of its process record).
std::vector<std::unique_ptr<ThreadEvents>> thread_streams(std::shared_ptr<const format::TraceFile> trace);

}  // namespace parperf::analysis
