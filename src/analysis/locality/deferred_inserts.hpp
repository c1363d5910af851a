// Insertions into footprint sets (FootprintSet), each carried out kDepth insertions after it is asked
// for, with its hash-table slot prefetched meanwhile. A function's set takes a word whenever the
// function differs from the previous accessor of the word, which in code that alternates functions
// over the same data is most accesses; with millions of words each insertion is otherwise a memory
// round trip that nothing overlaps. Only the sets' sizes are ever read, after flush().
#pragma once

#include <array>
#include <cstdint>

#include "analysis/locality/footprint_set.hpp"

namespace parperf::locality {

class DeferredInserts {
 public:
  static constexpr std::size_t kDepth = 16;  // enough round trips in flight to hide memory latency

  void insert(FootprintSet& set, std::uint64_t word) {
    Pending& pending = pending_[next_];
    if (pending.set != nullptr) pending.set->insert(pending.word);
    set.prefetch(word);
    pending = Pending{&set, word};
    next_ = (next_ + 1) % kDepth;
  }

  // Carries out every pending insertion.
  void flush() {
    for (Pending& pending : pending_) {
      if (pending.set != nullptr) pending.set->insert(pending.word);
      pending = Pending{};
    }
  }

 private:
  struct Pending {
    FootprintSet* set = nullptr;
    std::uint64_t word = 0;
  };

  std::array<Pending, kDepth> pending_{};
  std::size_t next_ = 0;
};

}  // namespace parperf::locality
