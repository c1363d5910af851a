// Exact reuse distances in O(log M) per access (M: distinct words), the method of Olken / Bennett &
// Kruskal: a hash table maps each word to the time of its latest access, and a rank-indexed bitmap
// over time (TimeMarks) marks the times that are still some word's latest access. The distance of an
// access to A is then the number of marks after A's previous time: the distinct words touched since.
//
// Times are renumbered when they reach the bitmap's capacity (compaction: the live marks become
// 0..k-1 in order and the capacity becomes max(min_capacity, 2k, half the table's slots)), so memory
// stays proportional to the distinct words, not to the stream's length. A live time's new number is
// its rank in the bitmap, so the renumbering is one sequential pass over the hash table per at least
// k accesses (and per at least half its slots).
#pragma once

#include <cstdint>
#include <limits>

#include "analysis/locality/time_marks.hpp"
#include "analysis/locality/word_table.hpp"

namespace parperf::locality {

class ReuseDistanceTracker {
 public:
  static constexpr std::uint64_t kCold = std::numeric_limits<std::uint64_t>::max();

  struct Result {
    std::uint64_t distance = kCold;       // kCold for the first access to the word
    std::uint32_t previous_function = 0;  // the function of the previous access (if not cold)
  };

  explicit ReuseDistanceTracker(std::size_t min_capacity = std::size_t{1} << 16);

  // Records an access to `word` by `function` and returns its reuse distance.
  Result access(std::uint64_t word, std::uint32_t function) {
    return hardware_popcount_ ? access_with_popcnt(word, function) : access_portable(word, function);
  }

  // Forgets every access, as a new tracker would, but keeps the table's memory for as many words.
  void clear();

  void prefetch(std::uint64_t word) const { last_access_.prefetch(word); }

  std::size_t distinct_words() const { return last_access_.size(); }
  std::size_t compactions() const { return compactions_; }

 private:
  struct LastAccess {
    std::uint32_t time = 0;  // < capacity, which compaction keeps below 2^32
    std::uint32_t function = 0;
  };

  // access() and compact() are compiled twice, with and without the popcnt instruction, and the
  // constructor picks one pair for this CPU: every access and every renumbered time counts bits,
  // and for baseline x86-64 std::popcount is a call into libgcc.
  template <bool kPopcnt>
  Result access_body(std::uint64_t word, std::uint32_t function);
  Result access_with_popcnt(std::uint64_t word, std::uint32_t function);
  Result access_portable(std::uint64_t word, std::uint32_t function);
  std::size_t marks_capacity(std::size_t live);
  void compact_body();
  void compact_with_popcnt();
  void compact_portable();

  bool hardware_popcount_;
  std::size_t min_capacity_;
  WordTable<LastAccess> last_access_;
  TimeMarks latest_marks_;
  std::uint64_t now_ = 0;  // time index of the next access
  std::size_t compactions_ = 0;
};

}  // namespace parperf::locality
