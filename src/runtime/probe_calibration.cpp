#include "runtime/probe_calibration.hpp"

#include <algorithm>
#include <atomic>

#include "runtime/clock.hpp"
#include "runtime/interval_stack.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {
namespace {

// Enough rounds for an uninterrupted one among them; few enough to cost a thread microseconds.
constexpr int kRounds = 48;

// Never registered (its state says recorded from the start), so it never reaches the profile's
// site table; its node is unlinked before anyone can see it. Constant-initialised: no guard, no
// library call.
parperf_site g_calibration_site = {"parperf probe calibration",  __FILE__,      __LINE__,
                                   PARPERF_KIND_SEQUENTIAL_LOOP, kSiteRecorded, 0};

// The least time between two clock reads: what a measurement adds of its own.
std::uint64_t clock_read_ticks() noexcept {
  std::uint64_t best = ~std::uint64_t{0};
  for (int round = 0; round < kRounds; ++round) {
    const std::uint64_t a = now_ticks();
    const std::uint64_t b = now_ticks();
    best = std::min(best, ticks_between(a, b));
  }
  return best;
}

void unlink_calibration_node(ThreadState& t) noexcept {
  Node* root = t.root;
  root->first_child.store(nullptr, std::memory_order_relaxed);
  for (Node*& child : root->inline_children) child = nullptr;
  root->last_child = nullptr;
  root->child_count = 0;
  t.node_count = 1;
}

}  // namespace

ProbeCostTicks calibrate_probes(ThreadState& t) noexcept {
  ProbeCostTicks costs;
  if (!recording() || t.unrecorded || t.depth.load(std::memory_order_relaxed) != 0 || t.trace) return costs;
  parperf_site* site = &g_calibration_site;
  const std::uint64_t read = clock_read_ticks();

  std::uint64_t entry = ~std::uint64_t{0};
  for (int round = 0; round < kRounds; ++round) {
    const std::uint64_t before = now_ticks();
    enter_interval(t, site, 0, now_ticks());
    leave_interval(t, site, now_ticks());
    entry = std::min(entry, ticks_between(before, now_ticks()));
  }
  Node* node = t.root->find_child(site, 0);
  if (!node || node->entries.count.get() == 0) {  // out of memory, or a limit: no calibration
    if (node) unlink_calibration_node(t);
    return costs;
  }
  costs.inside = node->entries.min_ticks.get();

  std::uint64_t mark = ~std::uint64_t{0};
  enter_interval(t, site, 0, now_ticks());
  for (int round = 0; round < kRounds; ++round) {
    const std::uint64_t before = now_ticks();
    mark_iteration(t, now_ticks());
    mark = std::min(mark, ticks_between(before, now_ticks()));
  }
  leave_interval(t, site, now_ticks());
  unlink_calibration_node(t);

  costs.entry = entry > read ? entry - read : 0;
  costs.mark = mark > read ? mark - read : 0;
  costs.inside = std::min(costs.inside, costs.entry);
  return costs;
}

}  // namespace parperf::runtime
