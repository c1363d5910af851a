// Per-node statistics of operations: synchronizations and other events at a source site that can
// lose time (DESIGN.md section 3, "for events also wait and sync time"). Collectors record them;
// the core knows nothing of what an operation is beyond its site.
//
// Like Node, an OperationStats is written by its owner thread only and read by the profile writer
// at any moment, so its fields are Relaxed<> and a new one is published with a release store.
#pragma once

#include <atomic>
#include <cstdint>

#include "parperf/parperf.h"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct Node;
struct ThreadState;

struct OperationStats {
  const parperf_site* site = nullptr;
  Relaxed<std::uint64_t> count;
  Relaxed<std::uint64_t> sum_ticks;
  Relaxed<std::uint64_t> min_ticks{~std::uint64_t{0}};
  Relaxed<std::uint64_t> max_ticks;
  Relaxed<std::uint64_t> wait_ticks;
  Relaxed<std::uint64_t> wait_max_ticks;
  Relaxed<std::uint64_t> sync_ticks;
  Relaxed<std::uint64_t> sync_max_ticks;
  Relaxed<std::uint64_t> bytes;
  // Communication (MPI): partners as MPI_COMM_WORLD ranks, overlap, and the last call's bounds.
  Relaxed<std::int64_t> partner_min{-1};
  Relaxed<std::int64_t> partner_max{-1};
  Relaxed<std::uint64_t> partner_set;
  Relaxed<std::uint64_t> overlap_ticks;
  Relaxed<std::uint64_t> last_begin_ticks;
  Relaxed<std::uint64_t> last_end_ticks;
  std::atomic<OperationStats*> next{nullptr};

  void record(std::uint64_t duration, std::uint64_t wait, std::uint64_t sync,
              std::uint64_t byte_count) noexcept {
    count.add(1);
    sum_ticks.add(duration);
    if (duration < min_ticks.get()) min_ticks.set(duration);
    if (duration > max_ticks.get()) max_ticks.set(duration);
    if (wait) {
      wait_ticks.add(wait);
      if (wait > wait_max_ticks.get()) wait_max_ticks.set(wait);
    }
    if (sync) {
      sync_ticks.add(sync);
      if (sync > sync_max_ticks.get()) sync_max_ticks.set(sync);
    }
    if (byte_count) bytes.add(byte_count);
  }

  void record_partner(std::int64_t partner) noexcept {
    if (partner < 0) return;
    if (partner_min.get() < 0 || partner < partner_min.get()) partner_min.set(partner);
    if (partner > partner_max.get()) partner_max.set(partner);
    partner_set.set(partner_set.get() | (std::uint64_t{1} << (partner & 63)));
  }
};

// The statistics of `site` in `node`, created on first use from the thread's memory (null when
// out of memory). A node holds few operation sites, so a list searched by pointer is enough.
OperationStats* operation_stats_for(ThreadState& thread, Node& node, const parperf_site* site) noexcept;

}  // namespace parperf::runtime
