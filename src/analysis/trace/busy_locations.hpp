// Location-seconds of computation in a span of time, over every location of a graph (or of a part
// of it: graph_part.hpp): what the critical path's useful pieces are compared with (on the path while
// others work, or while they wait).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/trace/activity_graph.hpp"

namespace parperf::analysis {

// Location-seconds of computation in a span of time, over every location: what the path's useful
// pieces are compared with (on the path while others work, or while they wait). A location's
// computations are the segments ending at its useful nodes. The path asks about pieces near each
// other in time, one after the other, walking back: each location keeps a cursor where its last
// answer was, with the computation before it, and moves from there, so the whole walk reads each
// location's nodes about once and holds nothing beside the graph (a step function of every
// location's changes, merged through a heap, was two thirds of the critical path's time and its
// largest allocation).
class BusyLocations {
 public:
  explicit BusyLocations(const ActivityGraph& g) : g_(g) {
    cursors_.reserve(g.locations.size());
    for (const GraphLocation& l : g.locations) {
      Cursor c{l.first + 1, l.first + 1, l.end, kNoNode, 0, {}};
      if (!in_order(c)) c.unordered = sorted_computations(c);
      cursors_.push_back(std::move(c));
    }
  }
  // `sum` plus each location's computation between a and b, added in location order (a part's
  // locations continue the sum of the parts before it).
  double between(double a, double b, double sum = 0) {
    for (Cursor& c : cursors_) {
      const double until_b = computation_until(c, b);
      sum += until_b - computation_until(c, a);  // last at a: where the walk back asks next
    }
    return sum;
  }

 private:
  // Computations of a location whose nodes are not in time order (a damaged clock: never a real run
  // after the repair), as sorted starts and ends with their running sums.
  struct Unordered {
    std::vector<double> starts, ends, start_sums, end_sums;  // sums[i]: of the first i
  };
  struct Cursor {
    std::uint32_t first, at, end;  // the location's first node that can close a computation, the
                                   // cursor, the location's end
    std::uint32_t previous;        // the last computation before `at`, or kNoNode
    double before = 0;             // the computation of the location's nodes before `at`
    Unordered unordered;           // used when not empty
  };

  bool computes(std::uint32_t k) const {
    return g_.segment[k] == SegmentKind::useful && g_.time[k] > g_.time[k - 1];
  }
  // Whether the location's computations follow each other in time, without NaN times: nearly always.
  bool in_order(const Cursor& c) const {
    double last_end = -std::numeric_limits<double>::infinity();
    for (std::uint32_t k = c.first; k < c.end; ++k) {
      if (std::isnan(g_.time[k]) || std::isnan(g_.time[k - 1])) return false;
      if (!computes(k)) continue;
      if (g_.time[k - 1] < last_end) return false;
      last_end = g_.time[k];
    }
    return true;
  }
  Unordered sorted_computations(const Cursor& c) const {
    Unordered u;
    for (std::uint32_t k = c.first; k < c.end; ++k)
      if (computes(k)) {
        u.starts.push_back(g_.time[k - 1]);
        u.ends.push_back(g_.time[k]);
      }
    const auto sort_and_sum = [](std::vector<double>& values, std::vector<double>& sums) {
      std::sort(values.begin(), values.end());
      sums.assign(values.size() + 1, 0);
      for (std::size_t i = 0; i < values.size(); ++i) sums[i + 1] = sums[i] + values[i];
    };
    sort_and_sum(u.starts, u.start_sums);
    sort_and_sum(u.ends, u.end_sums);
    return u;
  }
  // The location's computation before time t: whole computations that ended by t, and the part
  // before t of the one under way at t.
  double computation_until(Cursor& c, double t) const {
    if (!c.unordered.starts.empty()) {
      // Every start before t adds (t - start), every end before t takes (t - end) back.
      const Unordered& u = c.unordered;
      const auto below = [&](const std::vector<double>& v) {
        return static_cast<std::size_t>(std::lower_bound(v.begin(), v.end(), t) - v.begin());
      };
      const std::size_t s = below(u.starts), e = below(u.ends);
      return (static_cast<double>(s) * t - u.start_sums[s]) - (static_cast<double>(e) * t - u.end_sums[e]);
    }
    // Back over the computations that end after t, each found from the one before (the nodes between
    // are read once a pass, not at every question)...
    while (c.previous != kNoNode && g_.time[c.previous] > t) {
      c.before -= g_.time[c.previous] - g_.time[c.previous - 1];
      c.at = c.previous;
      c.previous = previous_computation(c, c.previous);
    }
    // ... and on over those that end by t, to the first that does not.
    for (; c.at < c.end; ++c.at)
      if (computes(c.at)) {
        if (g_.time[c.at] > t) break;
        c.before += g_.time[c.at] - g_.time[c.at - 1];
        c.previous = c.at;
      }
    // The one under way at t, if any: `at` stopped at a computation that ends after t.
    if (c.at < c.end && g_.time[c.at - 1] < t) return c.before + (t - g_.time[c.at - 1]);
    return c.before;
  }
  std::uint32_t previous_computation(const Cursor& c, std::uint32_t k) const {
    while (k > c.first)
      if (computes(--k)) return k;
    return kNoNode;
  }

  const ActivityGraph& g_;
  std::vector<Cursor> cursors_;
};

}  // namespace parperf::analysis
