// One thread's interval tree: a node per distinct interval path (site, value), holding the
// statistics of DESIGN.md section 3.
//
// Only the owning thread creates nodes and writes statistics. The profile writer may read them at
// any moment from another thread or a signal handler, so: statistics are Relaxed<> words, and a new
// node becomes reachable (first_child / next_sibling) only through a release store after it is
// fully built. Nodes are never freed.
#pragma once

#include <atomic>
#include <cstdint>

#include "parperf/parperf.h"
#include "runtime/duration_stats.hpp"
#include "runtime/iteration_histogram.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct EventStats;
struct OperationStats;

struct Node {
  // Identity, fixed at creation.
  const parperf_site* site = nullptr;
  std::int64_t value = 0;
  Node* parent = nullptr;

  // Tree links for the writer, in creation order.
  std::atomic<Node*> first_child{nullptr};
  std::atomic<Node*> next_sibling{nullptr};
  Node* last_child = nullptr;  // owner only

  // Child lookup, owner only: a few inline slots cover most nodes; more spill into an
  // open-addressed table keyed by (site, value).
  static constexpr int kInlineChildren = 4;
  Node* inline_children[kInlineChildren] = {};
  Node** child_table = nullptr;
  std::uint32_t child_table_capacity = 0;
  std::uint32_t child_count = 0;

  // Statistics (DESIGN.md section 3), times in ticks.
  DurationStats entries;
  Relaxed<std::uint64_t> last_begin_ticks;
  Relaxed<std::uint64_t> os_user_self_ns;
  Relaxed<std::uint64_t> os_sys_self_ns;
  DurationStats iterations;  // loop iterations or chunks of the interval
  // Their distribution, created on the first iteration (iteration_histogram.hpp); null on nodes
  // without iterations, and when memory ran out.
  std::atomic<IterationHistogram*> iteration_histogram{nullptr};
  std::atomic<EventStats*> first_event{nullptr};
  std::atomic<OperationStats*> first_operation{nullptr};
  // Created as the path to a parallel region that this thread joined as a team member (it did not
  // enter the interval itself): see enter_team_region in interval_stack.hpp.
  Relaxed<bool> context;
  // The node's index in its thread section of the profile being written (the profile writer's
  // alone: references from other sections, such as a collector's section, use it).
  std::uint32_t written_index = 0xffffffffu;

  // Records one completed entry of `duration` ticks that began at `begin`.
  void record_entry(std::uint64_t begin, std::uint64_t duration) noexcept {
    entries.record(duration);
    last_begin_ticks.set(begin);
  }
  void record_iteration(std::uint64_t duration) noexcept {
    iterations.record(duration);
    IterationHistogram* histogram = iteration_histogram.load(std::memory_order_relaxed);
    if (__builtin_expect(histogram == nullptr, 0)) histogram = attach_iteration_histogram();
    if (histogram) histogram->record(duration);
  }

  // The child for (site, value), or null. The common case, a hit in the inline slots, is inlined.
  Node* find_child(const parperf_site* s, std::int64_t v) const noexcept {
    for (Node* child : inline_children)
      if (child && child->site == s && child->value == v) return child;
    return child_table ? find_in_table(s, v) : nullptr;
  }

  Node* find_in_table(const parperf_site* s, std::int64_t v) const noexcept;
  // Cold: allocates and publishes the node's histogram on its first iteration (null when out of
  // memory, tried again at the next iteration).
  IterationHistogram* attach_iteration_histogram() noexcept;
};

// Bump allocation of nodes for one thread, in chunks that start small (most threads of a
// thread-per-task program need a handful of nodes) and double up to a cap.
class NodeArena {
 public:
  Node* allocate() noexcept;  // null when memory is exhausted

 private:
  static constexpr int kFirstChunk = 8;
  static constexpr int kLargestChunk = 256;
  Node* chunk_ = nullptr;
  int chunk_size_ = 0;
  int used_ = 0;
};

// Creates the child (site, value) of `parent` and publishes it; null when out of memory.
Node* add_child(NodeArena& arena, Node* parent, const parperf_site* site, std::int64_t value) noexcept;

}  // namespace parperf::runtime
