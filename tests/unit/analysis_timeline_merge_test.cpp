// The merged timeline (analysis/trace/timeline_merge.hpp): every thread's events on rank 0's clock,
// in one order, whatever offset and drift the ranks' clocks had.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "analysis/trace/clock_repair.hpp"
#include "analysis/trace/timeline_merge.hpp"

namespace parperf::analysis {
namespace {

// A thread's events given directly with their local times; the event's site numbers them.
class ListedEvents final : public ThreadEvents {
 public:
  ListedEvents(std::int64_t rank, std::uint32_t thread, std::vector<double> local_ns)
      : ThreadEvents(rank, thread), times_(std::move(local_ns)) {}
  bool next(double& local_ns, format::TraceEvent& event) override {
    if (i_ == times_.size()) return false;
    event = {};
    event.kind = format::TraceEventKind::iteration;
    event.site = static_cast<std::uint32_t>(i_);
    local_ns = times_[i_++];
    return true;
  }

 private:
  std::vector<double> times_;
  std::size_t i_ = 0;
};

// Rank 1's clock runs 5 ms behind rank 0's and gains 100 ppm: the correction adds 5 ms plus
// 1e-4 of the time since its anchor. The local time of a true (rank 0) time g is then
// (g - 5 ms) / (1 + 1e-4).
ClockCorrection skewed_clocks() {
  ClockCorrection clocks;
  RankClock& c = clocks.clocks[1];
  c.rank = 1;
  c.corrected = true;
  c.offset = 5e6;
  c.anchor = 0;
  c.drift = 1e-4;
  return clocks;
}
double rank1_local(double true_ns) { return (true_ns - 5e6) / (1 + 1e-4); }

TEST(TimelineMerge, EventsComeInTheOrderOfCorrectedTimeWhateverTheClocksSkewAndDrift) {
  // In true time the ranks alternate, 10 µs apart, for 1 s: rank 0 at even steps, rank 1 at odd
  // ones. On rank 1's own clock its events seem 5 ms earlier, so uncorrected they would all come
  // 500 steps too soon.
  std::vector<double> rank0, rank1;
  for (int step = 0; step < 100000; ++step) {
    const double true_ns = 1e7 + 1e4 * step;
    (step % 2 == 0 ? rank0 : rank1).push_back(step % 2 == 0 ? true_ns : rank1_local(true_ns));
  }
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  streams.push_back(std::make_unique<ListedEvents>(1, 0, rank1));
  streams.push_back(std::make_unique<ListedEvents>(0, 0, rank0));
  int step = 0;
  double worst_error = 0;
  merge_timeline(streams, skewed_clocks(), [&](const TimelineEvent& e) {
    ASSERT_EQ(e.rank, step % 2) << "event " << step << " came from the wrong rank: the merge is out of order";
    ASSERT_EQ(e.event.site, static_cast<std::uint32_t>(step / 2)) << "event " << step;
    worst_error = std::max(worst_error, std::abs(e.time_ns - (1e7 + 1e4 * step)));
    ++step;
  });
  EXPECT_EQ(step, 100000) << "every event is merged once";
  EXPECT_LT(worst_error, 1.0) << "corrected times are the true ones, to the nanosecond";
}

TEST(TimelineMerge, EqualTimesComeByRankThenThreadThenStreamOrder) {
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  streams.push_back(std::make_unique<ListedEvents>(1, 0, std::vector<double>{100, 100}));
  streams.push_back(std::make_unique<ListedEvents>(0, 2, std::vector<double>{100}));
  streams.push_back(std::make_unique<ListedEvents>(0, 1, std::vector<double>{100}));
  std::vector<std::string> order;
  merge_timeline(streams, ClockCorrection{}, [&](const TimelineEvent& e) {
    order.push_back(std::to_string(e.rank) + ":" + std::to_string(e.thread) + "#" +
                    std::to_string(e.event.site));
  });
  EXPECT_EQ(order, (std::vector<std::string>{"0:1#0", "0:2#0", "1:0#0", "1:0#1"}));
}

// What a pass riding on the merge's decoding (the node counting) relies on: it sees every event of
// every stream, in each stream's order, those of the kinds the merge does not give too.
TEST(TimelineMerge, AnObserverSeesEveryEventOfEachStreamInItsOrderTheKindsPassedOverToo) {
  struct Seen final : StreamObserver {
    std::vector<std::vector<std::uint32_t>> sites;  // by stream
    void begin(const std::vector<std::unique_ptr<ThreadEvents>>& streams) override {
      sites.assign(streams.size(), {});
    }
    void event(std::size_t stream, const format::TraceEvent& e) override {
      sites.at(stream).push_back(e.site);
    }
    void end() override {}
  } seen;
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  streams.push_back(std::make_unique<ListedEvents>(1, 0, std::vector<double>{5, 30, 40}));
  streams.push_back(std::make_unique<ListedEvents>(0, 0, std::vector<double>{10, 20}));
  observe_streams(streams, seen);
  ASSERT_EQ(streams.size(), 2u);
  EXPECT_EQ(streams[0]->rank(), 1) << "a wrapped stream keeps its rank and thread";
  std::size_t given = 0;
  merge_timeline(
      streams, ClockCorrection{}, [&](const TimelineEvent&) { ++given; }, nullptr,
      event_kind_bit(format::TraceEventKind::operation));
  EXPECT_EQ(given, 0u) << "the merge gives only operations, and the streams hold none";
  EXPECT_EQ(seen.sites, (std::vector<std::vector<std::uint32_t>>{{0, 1, 2}, {0, 1}}));
}

TEST(TimelineMerge, ADecodedTracesThreadsFollowTheirBlocksSequenceAndTheCalibration) {
  auto trace = std::make_shared<format::TraceFile>();
  trace->process.rank = 2;
  trace->process.origin_ticks = 1000;
  trace->process.ticks_per_second = 1'000'000'000;  // the estimate: 1 tick a ns
  trace->clock = format::TraceClockRecord{};
  trace->clock->ticks_per_second = 2'000'000'000;  // the calibration wins: 2 ticks a ns
  // Thread 0's second block is written before its first (the writer took them out of order).
  for (std::uint64_t sequence : {1u, 0u}) {
    format::TraceBlock block;
    block.header.thread = 0;
    block.header.sequence = sequence;
    format::TraceEvent e;
    e.kind = format::TraceEventKind::iteration;
    e.site = static_cast<std::uint32_t>(sequence);
    e.ticks = 1000 + 200 * (sequence + 1);
    block.events = {e};
    trace->blocks.push_back(block);
  }
  auto streams = thread_streams(trace);
  ASSERT_EQ(streams.size(), 1u);
  std::vector<double> times;
  std::vector<std::uint32_t> sites;
  merge_timeline(streams, ClockCorrection{}, [&](const TimelineEvent& e) {
    EXPECT_EQ(e.rank, 2);
    times.push_back(e.local_ns);
    sites.push_back(e.event.site);
  });
  EXPECT_EQ(sites, (std::vector<std::uint32_t>{0, 1})) << "block 0 before block 1";
  EXPECT_EQ(times, (std::vector<double>{100, 200})) << "ticks since the origin at 2 ticks a ns";
}

TEST(TimelineMerge, ARepairedLocationsEventsComeAtTheirRepairedTimesAndTheOthersAsCorrected) {
  // Rank 1 thread 0 was repaired at 100 ns (moved to 110): an event at 150 follows the shift as the
  // amortization absorbs it; rank 0's events stay where they are.
  const std::vector<double> repaired_times = {110};  // the repaired graph's: one node, rank 1's
  ClockRepair repair;
  repair.locations = {{{0, 0}, 0}, {{1, 0}, 1}};
  repair.anchors = {LocationAnchors(repaired_times), LocationAnchors(repaired_times)};
  repair.anchors[1].add(0, 100);
  repair.anchors[1].finish();
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  streams.push_back(std::make_unique<ListedEvents>(0, 0, std::vector<double>{50, 150, 5000}));
  streams.push_back(std::make_unique<ListedEvents>(1, 0, std::vector<double>{50, 100, 150, 5000}));
  std::vector<std::pair<std::int64_t, double>> seen;
  merge_timeline(
      streams, ClockCorrection{}, [&](const TimelineEvent& e) { seen.emplace_back(e.rank, e.time_ns); },
      &repair);
  const std::vector<std::pair<std::int64_t, double>> expected = {
      {0, 50}, {1, 50}, {1, 110}, {0, 150}, {1, 110 + kAmortization * 50}, {0, 5000}, {1, 5000}};
  ASSERT_EQ(seen.size(), expected.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].first, expected[i].first) << "event " << i;
    EXPECT_DOUBLE_EQ(seen[i].second, expected[i].second) << "event " << i;
  }
}

}  // namespace
}  // namespace parperf::analysis
