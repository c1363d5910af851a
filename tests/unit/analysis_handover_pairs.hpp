// The handovers of locks or post-start-complete-wait links (LockHandovers) as (from rank, its call,
// to rank, its call), for tests to compare with what a hand-made run's construction says.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "analysis/trace/messages.hpp"

namespace parperf::analysis {

// (releasing rank, its call, acquiring rank, its call) of each handover.
struct Pair {
  std::int32_t release_rank;
  std::uint32_t release_call;
  std::int32_t acquisition_rank;
  std::uint32_t acquisition_call;
  bool operator==(const Pair&) const = default;
};
inline std::vector<Pair> pairs(const LockHandovers& h) {
  std::vector<Pair> out;
  for (const LockHandover& x : h.handovers)
    out.push_back({x.release.rank, x.release.index, x.acquisition.rank, x.acquisition.index});
  return out;
}
inline void PrintTo(const Pair& p, std::ostream* os) {
  *os << "rank " << p.release_rank << " call " << p.release_call << " -> rank " << p.acquisition_rank
      << " call " << p.acquisition_call;
}

}  // namespace parperf::analysis
