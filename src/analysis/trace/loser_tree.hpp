// A tournament ("loser") tree over k sorted streams: what merges the threads' events by time
// (timeline_merge.cpp). Each inner node keeps
// the entry that lost the match played there, and node 0 the overall winner. When the winner's
// stream moves to its next entry, only the matches on its path to the root are replayed: log2(k)
// comparisons an entry, where a binary heap's pop and push take about twice that. A node holds the
// loser's key itself, not an index to look it up by, and a match selects without branching: which
// side wins is as unpredictable as the program's events.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace parperf::analysis {

class LoserTree {
 public:
  explicit LoserTree(std::size_t streams) : leaves_(streams), node_(std::max<std::size_t>(streams, 1)) {}

  // A stream's entry: its time, then an order among equal times in the tag's high 32 bits, and the
  // stream in its low ones.
  struct Entry {
    double time_ns = kNever;  // a stream at its end is infinitely late
    std::uint64_t tag = 0;
    std::size_t stream() const { return static_cast<std::size_t>(tag & 0xffffffffu); }
  };
  static Entry entry(double time_ns, std::uint32_t place, std::size_t stream) {
    return {time_ns, static_cast<std::uint64_t>(place) << 32 | stream};
  }
  static Entry finished(std::uint32_t place, std::size_t stream) { return entry(kNever, place, stream); }
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // Plays every match, once, from every stream's first entry (`first[i]` is stream i's).
  void build(const std::vector<Entry>& first) {
    const std::size_t k = leaves_;
    if (k == 0) return;
    std::vector<Entry> winner(2 * k);
    for (std::size_t i = 0; i < k; ++i) winner[k + i] = first[i];
    for (std::size_t p = k - 1; p >= 1; --p) {
      const Entry& a = winner[2 * p];
      const Entry& b = winner[2 * p + 1];
      const bool a_wins = earlier(a, b);
      node_[p] = a_wins ? b : a;
      winner[p] = a_wins ? a : b;
    }
    node_[0] = k == 1 ? first[0] : winner[1];
  }
  // Replays the matches on the path of the winner's stream, whose entry is now `next`.
  void replay(Entry next) {
    for (std::size_t p = (next.stream() + leaves_) / 2; p >= 1; p /= 2) {
      const Entry held = node_[p];
      const bool held_wins = earlier(held, next);
      node_[p].time_ns = held_wins ? next.time_ns : held.time_ns;
      node_[p].tag = held_wins ? next.tag : held.tag;
      next.time_ns = held_wins ? held.time_ns : next.time_ns;
      next.tag = held_wins ? held.tag : next.tag;
    }
    node_[0] = next;
  }
  // The earliest entry; its time is infinite when every stream is at its end.
  const Entry& winner() const { return node_[0]; }
  bool done() const { return leaves_ == 0 || node_[0].time_ns == kNever; }

 private:
  static bool earlier(const Entry& x, const Entry& y) {
    return (x.time_ns < y.time_ns) | ((x.time_ns == y.time_ns) & (x.tag < y.tag));
  }

  std::size_t leaves_;
  std::vector<Entry> node_;
};

}  // namespace parperf::analysis
