// The clock condition restored (DESIGN.md section 8): after the offset-and-drift correction a
// receive may still end before its send began, when the correction between two ranks is off by more
// than the message took. Such a graph has backward edges and every analysis below would be wrong.
//
// The repair is a controlled logical clock (Rabenseifner's, as Scalasca applies it), forward
// amortization: in dependency order, a node that would come before a node it depends on moves just
// after it; the nodes after it on its location keep the shift, their distances shrunk to
// `kAmortization` of the measured ones, until the shift has been absorbed and they are back at their
// measured times. Intervals keep their lengths within 1 %, and only where a shift is being absorbed.
// Departure from Scalasca: no backward amortization (the nodes before a jump keep their times).
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "analysis/trace/activity_graph.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/repair_anchors.hpp"

namespace parperf::analysis {

inline constexpr double kAmortization = 0.99;

struct ClockRepair {
  std::uint64_t edges = 0;       // dependencies checked
  std::uint64_t violations = 0;  // of those, ones whose target came before their source
  std::uint64_t moved = 0;       // nodes the repair moved
  double largest_shift_ns = 0;
  std::uint64_t remaining = 0;  // dependencies still backwards after the repair: 0, or the repair is wrong
  // Per location, its moved nodes' measured and repaired times: what re-times the location's other
  // events. They read the repaired graph's times, which must outlive them.
  std::vector<LocationAnchors> anchors;
  std::map<std::pair<std::int64_t, std::uint32_t>, std::uint32_t> locations;  // (rank, thread) -> location

  // The repaired time of a moment `t` (corrected ns) of a location, or of a rank's thread (the
  // timeline exports: every event, flow end and operation end of a location moves with its nodes).
  double repaired(std::uint32_t location, double t) const;
  double repaired(std::int64_t rank, std::uint32_t thread, double t) const;
  // The anchors of a rank's thread; null when it did not move.
  const LocationAnchors* anchors_of(std::int64_t rank, std::uint32_t thread) const;
};

// ClockRepair::repaired for the moments of one location asked in nearly increasing order, as its
// events and its calls' starts and ends come: each anchor is found by galloping from the one found
// last (either way), not by a search of every anchor, where a run with many moved nodes spent a
// tenth of its report in those searches. The same values as ClockRepair::repaired.
class RepairedTimes {
 public:
  explicit RepairedTimes(const LocationAnchors& anchors) : anchors_(&anchors) {}
  double operator()(double t);

 private:
  const LocationAnchors* anchors_;
  std::size_t after_ = 0;  // how many anchors were at or before the moment asked last
};

// Moves the graph's node times (the costs follow from them). Pure but for the graph it repairs, whose
// times the returned anchors then read.
ClockRepair repair_clock_condition(ActivityGraph& graph);
// The same repair of a part of the graph, made by every part at once (part_sweep.hpp): its nodes',
// hubs' and ghosts' times become the whole graph's repaired times, to the bit; its anchors are its
// locations'; the counts, the largest shift and the graph's end are the run's, on every part.
ClockRepair repair_clock_condition(GraphPart& part, PartExchange& exchange);

// Moves the messages' and collectives' calls as the repair moved their locations, so that the wait
// states (wait_states.hpp) read the same times as the graph's analyses and the exports.
void repair_communication(Communication& communication, const ClockRepair& repair);
// The same by the parts of a run analysed by parts, together: `repair`, the part's (its locations'
// anchors); a call of another part's rank is re-timed by that part. `traces` and `ranks` say which
// part holds which rank.
void repair_communication(Communication& communication, const ClockRepair& repair, const TraceRun& traces,
                          const RankPartition& ranks, PartExchange& exchange);

}  // namespace parperf::analysis
