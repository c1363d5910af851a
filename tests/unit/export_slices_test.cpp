// The timeline's slices (export/timeline_slices.hpp) from events given directly: what keeps every
// track nested whatever the trace holds (an operation overlapping its thread's next event, a leave
// or a user event end with nothing open, intervals open at the end), where flows come among the
// events, and the shift that keeps times from being negative.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "export/timeline_slices.hpp"

namespace parperf::exports {
namespace {

using format::TraceEvent;
using format::TraceEventKind;

class export_slices : public testing::Test {
 protected:
  export_slices() : names_(analysis::TraceRun{}, analysis::SiteTable{}) {}

  // Feeds `events` (rank, thread, corrected time = local time) and returns the items as
  // "kind name @ns thread", in order.
  std::vector<std::string> slices_of(const std::vector<analysis::TimelineEvent>& events,
                                     const std::vector<Flow>& flows = {}) {
    std::vector<std::string> out;
    SliceBuilder builder(names_, clocks_, flows, [&](const TimelineItem& item) {
      static const char* kKinds[] = {"begin", "end", "instant", "counter", "flow-start", "flow-end"};
      out.push_back(std::string(kKinds[static_cast<int>(item.kind)]) + " " + std::string(item.name) + " @" +
                    std::to_string(item.timestamp) + " t" + std::to_string(item.thread));
    });
    for (const analysis::TimelineEvent& e : events) builder.add(e);
    builder.finish();
    return out;
  }
  static analysis::TimelineEvent at(double ns, TraceEvent e, std::uint32_t thread = 0) {
    return analysis::TimelineEvent{0, thread, ns, ns, std::move(e)};
  }

  TimelineNames names_;
  analysis::ClockCorrection clocks_;
};

TEST_F(export_slices, AnOperationOverlappingItsThreadsNextEventEndsThere) {
  const auto items = slices_of({
      at(10, {.kind = TraceEventKind::enter, .site = 1}),
      at(12, {.kind = TraceEventKind::operation, .site = 2, .duration = 100}),  // would end at 112
      at(20, {.kind = TraceEventKind::leave, .site = 1}),
  });
  EXPECT_EQ(items, (std::vector<std::string>{"begin site 1 @10 t0", "begin site 2 @12 t0",
                                             "end site 2 @20 t0", "end site 1 @20 t0"}));
}

TEST_F(export_slices, ATaskEventNamesTheTaskOfTheIntervalJustEnteredAndMakesNoSliceOfItsOwn) {
  const auto items = slices_of({
      at(10, {.kind = TraceEventKind::enter, .site = 1}),
      at(12, {.kind = TraceEventKind::operation, .site = 2, .duration = 100}),
      at(20, {.kind = TraceEventKind::enter, .site = 3}),
      at(20, {.kind = TraceEventKind::task, .value = 42}),
      at(30, {.kind = TraceEventKind::leave, .site = 3}),
      at(40, {.kind = TraceEventKind::leave, .site = 1}),
  });
  EXPECT_EQ(items,
            (std::vector<std::string>{"begin site 1 @10 t0", "begin site 2 @12 t0", "end site 2 @20 t0",
                                      "begin site 3 @20 t0", "end site 3 @30 t0", "end site 1 @40 t0"}));
}

TEST_F(export_slices, AnOperationEndsInTimeAmongOtherThreadsEvents) {
  const auto items = slices_of({
      at(10, {.kind = TraceEventKind::operation, .site = 2, .duration = 5}),
      at(12, {.kind = TraceEventKind::event_atomic, .event = 1}, 1),
      at(20, {.kind = TraceEventKind::event_atomic, .event = 1}, 1),
  });
  EXPECT_EQ(items, (std::vector<std::string>{"begin site 2 @10 t0", "instant event 1 @12 t1",
                                             "end site 2 @15 t0", "instant event 1 @20 t1"}));
}

TEST_F(export_slices, EndsWithNothingOpenAreDroppedAndWhatIsOpenClosesAtTheEnd) {
  const auto items = slices_of({
      at(5, {.kind = TraceEventKind::leave, .site = 9}),       // entered while recording was off
      at(6, {.kind = TraceEventKind::event_end, .event = 3}),  // started while recording was off
      at(10, {.kind = TraceEventKind::enter, .site = 1}),
      at(11, {.kind = TraceEventKind::event_start, .event = 3, .text = "x"}),
      at(30, {.kind = TraceEventKind::enter, .site = 4}, 1),
  });
  EXPECT_EQ(items,
            (std::vector<std::string>{"begin site 1 @10 t0", "begin event 3 @11 t0", "begin site 4 @30 t1",
                                      "end event 3 @30 t0", "end site 1 @30 t0", "end site 4 @30 t1"}));
}

TEST_F(export_slices, FlowsComeInTimeAndInsideTheSliceThatBeginsWithThem) {
  const std::vector<Flow> flows = {Flow{{0, 0, 10}, {0, 1, 14}, "message"}};
  const auto items = slices_of(
      {
          at(10, {.kind = TraceEventKind::operation, .site = 2, .duration = 2}),
          at(13, {.kind = TraceEventKind::operation, .site = 3, .duration = 5}, 1),
          at(30, {.kind = TraceEventKind::iteration, .site = 1}),
      },
      flows);
  EXPECT_EQ(items,
            (std::vector<std::string>{"begin site 2 @10 t0", "flow-start message @10 t0", "end site 2 @12 t0",
                                      "begin site 3 @13 t1", "flow-end message @14 t1", "end site 3 @18 t1",
                                      "instant iteration @30 t0"}));
}

TEST_F(export_slices, NegativeCorrectedTimesAreShiftedToStartAtZero) {
  const auto items = slices_of({
      at(-7, {.kind = TraceEventKind::enter, .site = 1}),
      at(3, {.kind = TraceEventKind::leave, .site = 1}),
  });
  EXPECT_EQ(items, (std::vector<std::string>{"begin site 1 @0 t0", "end site 1 @10 t0"}));
}

TEST_F(export_slices, TimesThatGoBackAreHeldAtTheLastOne) {
  // A drift faster than time itself, which no real clock has, would make a stream go back.
  const auto items = slices_of({
      at(10, {.kind = TraceEventKind::enter, .site = 1}),
      at(8, {.kind = TraceEventKind::leave, .site = 1}),
  });
  EXPECT_EQ(items, (std::vector<std::string>{"begin site 1 @10 t0", "end site 1 @10 t0"}));
}

TEST_F(export_slices, WaitingOperationsAddUpToTheRanksLostTime) {
  std::vector<double> lost;
  const std::vector<Flow> no_flows;
  SliceBuilder builder(names_, clocks_, no_flows, [&](const TimelineItem& item) {
    if (item.kind == ItemKind::counter) lost.push_back(item.value);
  });
  builder.add(at(10, {.kind = TraceEventKind::operation, .site = 2, .duration = 5, .wait = 3, .sync = 1}));
  builder.add(at(20, {.kind = TraceEventKind::operation, .site = 2, .duration = 5}));  // no wait: no sample
  builder.add(at(30, {.kind = TraceEventKind::operation, .site = 2, .duration = 5, .wait = 2}, 1));
  builder.finish();
  EXPECT_EQ(lost, (std::vector<double>{4, 6})) << "wait + sync, summed over the rank's threads";
}

}  // namespace
}  // namespace parperf::exports
