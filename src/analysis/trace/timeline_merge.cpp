#include "analysis/trace/timeline_merge.hpp"

#include <algorithm>
#include <map>
#include <queue>

namespace parperf::analysis {
namespace {

// The heap holds small keys; each stream's next event waits in its own slot, so the events (with
// their texts) are never moved around the heap.
struct Key {
  double time_ns;
  std::int64_t rank;
  std::uint32_t thread;
  std::uint64_t order;  // the event's position in its stream
  std::size_t stream;
};

// The heap's order: the earliest on top.
struct Later {
  bool operator()(const Key& a, const Key& b) const {
    if (a.time_ns != b.time_ns) return a.time_ns > b.time_ns;
    if (a.rank != b.rank) return a.rank > b.rank;
    if (a.thread != b.thread) return a.thread > b.thread;
    return a.order > b.order;
  }
};

// A thread of a trace: its blocks in sequence order, each decoded when the stream reaches it (an
// index's blocks stay in the file until then).
class DecodedThread final : public ThreadEvents {
 public:
  DecodedThread(std::shared_ptr<const format::TraceFile> trace, std::uint32_t thread,
                std::vector<const format::TraceBlock*> blocks)
      : ThreadEvents(trace->process.rank, thread), trace_(std::move(trace)), blocks_(std::move(blocks)) {
    ns_per_tick_ = ns_per_tick(*trace_);
  }

  std::optional<std::pair<double, format::TraceEvent>> next() override {
    while (event_ == events_.size()) {
      if (block_ == blocks_.size()) return std::nullopt;
      events_ = format::events_of(*trace_, *blocks_[block_++]);
      event_ = 0;
    }
    format::TraceEvent& e = events_[event_++];
    const double local =
        (static_cast<double>(e.ticks) - static_cast<double>(trace_->process.origin_ticks)) * ns_per_tick_;
    return std::pair(local * skew_rate_ + static_cast<double>(trace_->process.skew_offset_ns), std::move(e));
  }

 private:
  std::shared_ptr<const format::TraceFile> trace_;
  // A test's injected clock error, as its profile applied it (trace_records.hpp).
  double skew_rate_ = 1.0 + static_cast<double>(trace_->process.skew_drift_ppb) * 1e-9;
  std::vector<const format::TraceBlock*> blocks_;
  double ns_per_tick_ = 1.0;
  std::size_t block_ = 0;                   // the next block to decode
  std::vector<format::TraceEvent> events_;  // the current block's
  std::size_t event_ = 0;
};

}  // namespace

void merge_timeline(std::vector<std::unique_ptr<ThreadEvents>>& streams, const ClockCorrection& clocks,
                    const std::function<void(const TimelineEvent&)>& emit) {
  std::vector<Key> keys;
  keys.reserve(streams.size());
  std::priority_queue<Key, std::vector<Key>, Later> heap(Later{}, std::move(keys));
  std::vector<TimelineEvent> slots(streams.size());
  std::vector<std::uint64_t> taken(streams.size(), 0);
  std::vector<const RankClock*> clock_of(streams.size());  // looked up once, not per event
  for (std::size_t i = 0; i < streams.size(); ++i) clock_of[i] = &clocks.of(streams[i]->rank());
  const auto refill = [&](std::size_t i) {
    ThreadEvents& s = *streams[i];
    auto next = s.next();
    if (!next) return;
    TimelineEvent& slot = slots[i];
    slot.rank = s.rank();
    slot.thread = s.thread();
    slot.local_ns = next->first;
    slot.time_ns = clock_of[i]->apply(next->first);
    slot.event = std::move(next->second);
    heap.push(Key{slot.time_ns, slot.rank, slot.thread, taken[i]++, i});
  };
  for (std::size_t i = 0; i < streams.size(); ++i) refill(i);
  while (!heap.empty()) {
    const std::size_t stream = heap.top().stream;
    heap.pop();
    emit(slots[stream]);
    refill(stream);
  }
}

double ns_per_tick(const format::TraceFile& trace) {
  const std::uint64_t tps = trace.clock && trace.clock->ticks_per_second ? trace.clock->ticks_per_second
                                                                         : trace.process.ticks_per_second;
  return tps ? 1e9 / static_cast<double>(tps) : 1.0;
}

std::vector<std::unique_ptr<ThreadEvents>> thread_streams(std::shared_ptr<const format::TraceFile> trace) {
  std::map<std::uint32_t, std::vector<const format::TraceBlock*>> by_thread;
  for (const format::TraceBlock& block : trace->blocks) by_thread[block.header.thread].push_back(&block);
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  for (auto& [thread, blocks] : by_thread) {
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const format::TraceBlock* a, const format::TraceBlock* b) {
                       return a->header.sequence < b->header.sequence;
                     });
    streams.push_back(std::make_unique<DecodedThread>(trace, thread, std::move(blocks)));
  }
  return streams;
}

}  // namespace parperf::analysis
