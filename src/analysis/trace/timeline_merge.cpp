#include "analysis/trace/timeline_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/loser_tree.hpp"
#include "format/profile_reader.hpp"

namespace parperf::analysis {
namespace {

// The longest an event of a closed trace can last, in ticks: the trace's span, from its process's
// origin to the clock's reading when the trace was closed (every event began after the one and was
// recorded before the other), and 1 ms for the threads' readings of the clock on different cores.
// An event's stored start is no bound: when events were traced inside an operation, its start was
// stored as the last of theirs, and start + duration runs past the next event (activity_graph.cpp).
// None for a trace cut short: where it ended is not known.
std::optional<std::uint64_t> longest_event(const format::TraceFile& trace) {
  if (!trace.clock || trace.clock->end_ticks < trace.process.origin_ticks) return std::nullopt;
  const std::uint64_t slack = std::max<std::uint64_t>(trace.process.ticks_per_second / 1000, 1);
  const std::uint64_t span = trace.clock->end_ticks - trace.process.origin_ticks;
  return span > std::numeric_limits<std::uint64_t>::max() - slack ? std::numeric_limits<std::uint64_t>::max()
                                                                  : span + slack;
}

// A thread of a trace: its blocks in sequence order, each read event by event when the stream
// reaches it (an index's blocks stay in the file until then; the current one is held as bytes).
class DecodedThread final : public ThreadEvents {
 public:
  DecodedThread(std::shared_ptr<const format::TraceFile> trace, std::uint32_t thread,
                std::vector<const format::TraceBlock*> blocks)
      : ThreadEvents(trace->process.rank, thread),
        trace_(std::move(trace)),
        clock_(*trace_),
        longest_(longest_event(*trace_)),
        blocks_(std::move(blocks)) {}

  bool next(double& local_ns, format::TraceEvent& event) override {
    while (!block_events_ || !block_events_->next(event)) {
      if (block_ == blocks_.size()) return false;
      block_events_.emplace(*trace_, *blocks_[block_++]);
    }
    if (longest_ && std::max(event.duration, event.wait) > *longest_) refuse(event);
    ++index_;
    local_ns = clock_.local_ns(event.ticks);
    return true;
  }

 private:
  // An operation's duration (or its waiting) longer than the whole trace is damage (a flipped bit
  // makes it years): every analysis would take it as time the program spent.
  [[noreturn]] void refuse(const format::TraceEvent& e) const {
    const std::string file =
        trace_->source ? trace_->source->path().string() : fmt::format("the trace of rank {}", rank());
    const double per_tick = ns_per_tick(*trace_) * 1e-9;
    throw format::FormatError(fmt::format(
        "corrupt: {}: event {} of thread {} lasts {:.6g} s, longer than the whole trace ({:.6f} s): "
        "its duration is damaged",
        file, index_, thread(), static_cast<double>(std::max(e.duration, e.wait)) * per_tick,
        static_cast<double>(trace_->clock->end_ticks - trace_->process.origin_ticks) * per_tick));
  }

  std::shared_ptr<const format::TraceFile> trace_;
  TraceClock clock_;
  std::optional<std::uint64_t> longest_;  // set for a closed trace
  std::uint64_t index_ = 0;               // of the next event in the thread
  std::vector<const format::TraceBlock*> blocks_;
  std::size_t block_ = 0;                            // the next block to read
  std::optional<format::BlockEvents> block_events_;  // the current block's
};

// A stream whose events an observer sees as they are read.
class ObservedThread final : public ThreadEvents {
 public:
  ObservedThread(std::unique_ptr<ThreadEvents> inner, std::size_t index, StreamObserver& observer)
      : ThreadEvents(inner->rank(), inner->thread()),
        inner_(std::move(inner)),
        index_(index),
        observer_(observer) {}
  bool next(double& local_ns, format::TraceEvent& event) override {
    if (!inner_->next(local_ns, event)) return false;
    observer_.event(index_, event);
    return true;
  }

 private:
  std::unique_ptr<ThreadEvents> inner_;
  std::size_t index_;
  StreamObserver& observer_;
};

}  // namespace

void observe_streams(std::vector<std::unique_ptr<ThreadEvents>>& streams, StreamObserver& observer) {
  observer.begin(streams);
  for (std::size_t i = 0; i < streams.size(); ++i)
    streams[i] = std::make_unique<ObservedThread>(std::move(streams[i]), i, observer);
}

void merge_timeline(std::vector<std::unique_ptr<ThreadEvents>>& streams, const ClockCorrection& clocks,
                    const std::function<void(const TimelineEvent&)>& emit, const ClockRepair* repair,
                    EventKinds kinds) {
  const std::size_t k = streams.size();
  if (k == 0) return;
  std::vector<std::uint32_t> place(k);  // each stream's place among equal times: by rank, then thread
  {
    std::vector<std::size_t> by_rank(k);
    for (std::size_t i = 0; i < k; ++i) by_rank[i] = i;
    std::stable_sort(by_rank.begin(), by_rank.end(), [&](std::size_t a, std::size_t b) {
      return std::pair(streams[a]->rank(), streams[a]->thread()) <
             std::pair(streams[b]->rank(), streams[b]->thread());
    });
    for (std::size_t i = 0; i < k; ++i) place[by_rank[i]] = static_cast<std::uint32_t>(i);
  }
  std::vector<TimelineEvent> slots(k);                       // each stream's current event
  std::vector<const RankClock*> clock_of(k);                 // looked up once, not per event
  std::vector<std::uint64_t> read(k, 0);                     // events each stream has given
  std::vector<std::optional<RepairedTimes>> repaired_of(k);  // a moved stream's, walked with it
  if (repair)
    for (std::size_t i = 0; i < k; ++i)
      if (const auto l = repair->locations.find({streams[i]->rank(), streams[i]->thread()});
          l != repair->locations.end() && !repair->anchors[l->second].empty())
        repaired_of[i].emplace(repair->anchors[l->second]);
  const auto advance = [&](std::size_t i) {
    TimelineEvent& slot = slots[i];
    do {
      if (!streams[i]->next(slot.local_ns, slot.event)) return LoserTree::finished(place[i], i);
      slot.index = read[i]++;
    } while (!(kinds & event_kind_bit(slot.event.kind)));
    slot.time_ns = clock_of[i]->apply(slot.local_ns);
    if (repaired_of[i]) slot.time_ns = (*repaired_of[i])(slot.time_ns);
    return LoserTree::entry(slot.time_ns, place[i], i);
  };
  std::vector<LoserTree::Entry> first(k);
  for (std::size_t i = 0; i < k; ++i) {
    clock_of[i] = &clocks.of(streams[i]->rank());
    slots[i].rank = streams[i]->rank();
    slots[i].thread = streams[i]->thread();
    first[i] = advance(i);
  }
  LoserTree tree(k);
  tree.build(first);
  while (!tree.done()) {
    const std::size_t stream = tree.winner().stream();
    emit(slots[stream]);
    tree.replay(advance(stream));
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
