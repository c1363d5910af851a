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
#include "runtime/duration_stats.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct Node;
struct ThreadState;

struct OperationStats {
  const parperf_site* site = nullptr;
  DurationStats durations;
  Relaxed<std::uint64_t> wait_ticks;
  Relaxed<std::uint64_t> wait_max_ticks;
  Relaxed<std::uint64_t> sync_ticks;
  Relaxed<std::uint64_t> sync_max_ticks;
  Relaxed<std::uint64_t> bytes;
  // Communication: partners as ranks of the whole job, overlap, and the last call's bounds.
  Relaxed<std::int64_t> partner_min{-1};
  Relaxed<std::int64_t> partner_max{-1};
  Relaxed<std::uint64_t> partner_set;
  Relaxed<std::uint64_t> overlap_ticks;
  Relaxed<std::uint64_t> last_begin_ticks;
  Relaxed<std::uint64_t> last_end_ticks;
  std::atomic<OperationStats*> next{nullptr};

  void record(std::uint64_t duration, std::uint64_t wait, std::uint64_t sync,
              std::uint64_t byte_count) noexcept {
    durations.record(duration);
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
