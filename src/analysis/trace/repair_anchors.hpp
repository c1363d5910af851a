// Where the clock repair (clock_repair.hpp) moved one location: the measured and repaired times of
// each node it moved, which re-time the location's other moments (its calls' starts and ends, the
// timeline's events). Held for the whole analysis and made while the repair holds the most: a run
// whose clocks were far off (ranks oversubscribed on a few cores) has nearly every node moved.
//
// Only the measured time is stored, 8 bytes an anchor: the repaired one is the graph's time of the
// node, found from the runs of consecutive moved nodes (8 bytes a run). Pairs took 16 bytes each. In
// chunks (chunked_vector.hpp): an array doubling as the repair added to it held up to three times its
// anchors at once, and its shrinking after copied them all, where the analysis holds the most (a
// real 8-rank run: 91 bytes an event at that moment, against 82 for the reading before it).
// The anchors are ordered by measured time, then repaired time: a location's nodes come in that
// order, nearly always; where they do not, each anchor keeps its node (4 bytes more) in that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/trace/chunked_vector.hpp"

namespace parperf::analysis {

class LocationAnchors {
 public:
  LocationAnchors() = default;
  // `repaired_times`: the graph's node times, which the repair writes; they must outlive the anchors
  // and not be reallocated.
  explicit LocationAnchors(const std::vector<double>& repaired_times) : times_(repaired_times.data()) {}

  // A moved node, after the location's nodes added before it.
  void add(std::uint32_t node, double measured);
  // Once every node is added: orders the anchors by (measured, repaired) where the nodes were not,
  // as a stable sort would, and lets go of the slack of their growth.
  void finish();

  std::size_t size() const { return measured_.size(); }
  bool empty() const { return measured_.empty(); }
  double measured(std::size_t i) const { return measured_[i]; }
  double repaired(std::size_t i) const { return times_[node(i)]; }
  // The measured time of the last node added.
  double last_measured() const { return measured_.back(); }
  // The anchors in [lo, hi) measured at or before `t` and their predecessors: where upper_bound
  // would put t among the measured times in that range.
  std::size_t after(double t, std::size_t lo, std::size_t hi) const;

 private:
  struct Run {
    std::uint32_t first_anchor = 0;  // where consecutive moved nodes begin
    std::uint32_t first_node = 0;
  };
  std::uint32_t node(std::size_t i) const;

  ChunkedVector<double> measured_;
  std::vector<Run> runs_;             // while the anchors are in node order
  std::vector<std::uint32_t> nodes_;  // each anchor's, once sorting reordered them (runs_ empty)
  std::uint32_t next_node_ = 0;       // the node after the last one added
  const double* times_ = nullptr;
};

}  // namespace parperf::analysis
