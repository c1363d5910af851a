// The merged timeline as the viewers see it: slices (an interval from its enter to its leave, an
// operation from its start for its duration), instants (a user event, a loop iteration, recording
// paused), counters (each rank's lost time so far) and flow arrows (a message from its send to its
// receive), in order of corrected time. Every writer takes this one stream, so they all show the
// same slices with the same names and arguments.
//
// Slices nest on each track, whatever the trace holds: an operation whose end would overlap the
// thread's next event is cut there (its `duration` argument keeps the recorded length), a leave
// with no interval open (recording was off at the enter) is dropped, and intervals still open where
// a thread's trace ends are closed at the end of the timeline. A user event's start and end form a
// slice on a lane of its own beside the thread's track (user events need not nest with intervals).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/timeline_merge.hpp"
#include "export/timeline_names.hpp"

namespace parperf::exports {

// One end of a flow arrow: a thread and a corrected time (ns since rank 0's start).
struct FlowEndpoint {
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  double time_ns = 0;
};

// An arrow between two threads' timelines: a message from its send to its receive.
struct Flow {
  FlowEndpoint from;
  FlowEndpoint to;
  std::string name;  // "MPI_Send → MPI_Recv (tag 7)"
};

enum class ItemKind : std::uint8_t { slice_begin, slice_end, instant, counter, flow_start, flow_end };

// What a slice or instant stands for (Chrome's and Perfetto's category).
enum class ItemCategory : std::uint8_t {
  interval,
  operation,
  user_event,
  iteration,
  recording,
  tracer,
  message
};
std::string_view category_name(ItemCategory category);

struct TimelineItem {
  ItemKind kind = ItemKind::instant;
  ItemCategory category = ItemCategory::interval;
  std::int64_t rank = 0;
  std::uint32_t thread = 0;
  // 0: the thread's own track; e + 1: the lane of the thread's user event e.
  std::uint32_t lane = 0;
  double time_ns = 0;           // corrected, ns since rank 0's start; may be negative
  std::uint64_t timestamp = 0;  // the same, shifted so that the timeline starts at 0 or later, and never back
  std::string_view name;        // slice_begin (and its slice_end), instant, counter, flows
  const SiteInfo* site = nullptr;             // interval and operation slices (begin and end)
  const format::TraceEvent* event = nullptr;  // the recorded event of a slice (begin and end) or instant
  double value = 0;                           // counter: lost time so far, ns
  double ns_per_tick = 1;  // of the rank's clock: the event's duration, wait and sync are in ticks
  std::uint64_t flow = 0;  // flows: the flow's id (its index in the list + 1)
};

// One argument of a slice or instant, for the writers that show them.
struct Argument {
  std::string_view name;
  bool is_text = false;
  std::int64_t number = 0;
  std::string_view text;
};
// The arguments of a slice_begin or instant: bytes, partner, tag, communicator, wait, sync and the
// recorded duration of an operation; the value of an interval; the text of a user event; the
// site's source file and line. Calls `f` for each that the item has.
void for_each_argument(const TimelineItem& item, const std::function<void(const Argument&)>& f);

struct TimelineSamples;

// What a writer is given: every recorded event as it comes out of the merge (CSV wants them all),
// the timeline items made of them, then the call-path samples (when the run has them; a writer
// whose format cannot show them ignores them).
class TimelineWriter {
 public:
  virtual ~TimelineWriter() = default;
  // Before the first item, when the run has call-path samples: for a format that wants each thread's
  // samples among its events in time order (OTF2). The samples outlive the export.
  virtual void samples_ahead(const TimelineSamples&) {}
  virtual void event(const analysis::TimelineEvent&) {}
  virtual void item(const TimelineItem&) {}
  virtual void samples(const TimelineSamples&) {}
  // After the last event: write what remains, close, and throw naming the file when it failed.
  virtual void finish() = 0;
};

// Turns the merged events into items, handing each to `out` as soon as its time is reached.
// Holds, per thread, its open intervals and at most one operation not yet ended: memory grows with
// threads and nesting depth, never with the trace's length.
class SliceBuilder {
 public:
  // `flows` (sorted or not) must outlive the builder.
  // `repair`, when given, re-times the operations' ends as merge_timeline re-timed the events.
  SliceBuilder(const TimelineNames& names, const analysis::ClockCorrection& clocks,
               const std::vector<Flow>& flows, std::function<void(const TimelineItem&)> out,
               const analysis::ClockRepair* repair = nullptr);
  void add(const analysis::TimelineEvent& e);
  // Ends the operations still running and closes the intervals still open, at the last time seen.
  void finish();
  // What corrected times are shifted by to make the timestamps (0 before the first event).
  double origin_ns() const { return origin_ns_; }
  // The origin of a timeline whose first event is at `first_ns`: times are not shifted unless some
  // are negative (a rank started before rank 0).
  static double origin_for(double first_ns) { return std::min(0.0, first_ns); }

 private:
  struct OpenInterval {
    const SiteInfo* site;
    format::TraceEvent event;
  };
  struct ThreadState {
    double ns_per_tick = 1;                           // its rank's
    std::optional<analysis::RepairedTimes> repaired;  // when the clock repair moved the thread
    std::vector<OpenInterval> intervals;
    bool operation_running = false;
    std::uint64_t operation_generation = 0;
    double operation_end = 0;
    const SiteInfo* operation_site = nullptr;
    format::TraceEvent operation;
    std::unordered_map<std::uint32_t, std::vector<format::TraceEvent>> user_events;  // open starts by id
  };
  struct Pending {  // an operation's end or a flow's endpoint, due at `time`
    double time;
    std::uint64_t order;  // ties: in the order they were queued
    std::int64_t rank;
    std::uint32_t thread;
    std::uint64_t generation;  // an operation's: stale when the thread's has moved on
    bool operator>(const Pending& o) const { return time != o.time ? time > o.time : order > o.order; }
  };

  ThreadState& state(std::int64_t rank, std::uint32_t thread);
  void emit(TimelineItem item);
  void release_until(double time, bool inclusive);
  void release_flows_before(double time);
  void end_operation(ThreadState& s, std::int64_t rank, std::uint32_t thread, double time);
  void begin_slice(const analysis::TimelineEvent& e, ItemCategory category, const SiteInfo* site,
                   std::uint32_t lane, std::string_view name, const format::TraceEvent* event);

  const TimelineNames& names_;
  const analysis::ClockCorrection& clocks_;
  const analysis::ClockRepair* repair_ = nullptr;
  const std::vector<Flow>& flows_;
  std::function<void(const TimelineItem&)> out_;
  std::vector<std::size_t> flow_starts_, flow_ends_;  // indices into flows_, by time
  std::size_t next_start_ = 0, next_end_ = 0;
  std::unordered_map<std::uint64_t, ThreadState> threads_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> operation_ends_;
  std::unordered_map<std::int64_t, double> lost_ns_;  // per rank, so far
  std::uint64_t order_ = 0;
  bool started_ = false;
  double origin_ns_ = 0;  // subtracted from corrected times: min(0, the first event's)
  std::uint64_t last_timestamp_ = 0;
  double last_ns_ = 0;
};

}  // namespace parperf::exports
