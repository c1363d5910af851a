#include "analysis/snapshot_skew.hpp"

#include <algorithm>

namespace parperf::analysis {
namespace {

// A node's time: its completed entries and the one open when it was written.
std::uint64_t time_of(const format::Node& n) { return n.sum_ns + n.open_ns; }

// The node whose time a node (or its operations) must fit in: itself for its operations; for the
// node, its nearest ancestor with time of its own (a team member's context nodes have none).
std::uint32_t timed_ancestor(const format::Thread& thread, std::uint32_t node) {
  std::uint32_t a = thread.nodes[node].parent;
  while (a > 0 && a < thread.nodes.size() && thread.nodes[a].context()) a = thread.nodes[a].parent;
  return a;
}

}  // namespace

SnapshotLift lift_snapshot_skew(format::Thread& thread) {
  SnapshotLift lift;
  if (thread.read_running == 0) return lift;
  const auto raise = [&](format::Node& n, std::uint64_t to) {
    const std::uint64_t now = time_of(n);
    if (to <= now) return;
    const std::uint64_t by = to - now;
    (n.open() ? n.open_ns : n.sum_ns) += by;
    ++lift.nodes;
    lift.most_ns = std::max(lift.most_ns, by);
  };
  // From the last node back: every nested node comes after its parent, so a node is complete (raised
  // for its own nested nodes) before it raises its parent in turn.
  for (std::uint32_t i = static_cast<std::uint32_t>(thread.nodes.size()); i-- > 0;) {
    format::Node& n = thread.nodes[i];
    std::uint64_t operations = 0;
    for (const format::OperationStats& o : n.operations) operations = std::max(operations, o.sum_ns);
    const bool timed = i == 0 || !n.context();
    if (timed) raise(n, operations);
    if (i == 0) break;
    const std::uint32_t a = timed_ancestor(thread, i);
    if (a >= i) continue;  // not pre-order: damage, left to the invariants to name
    raise(thread.nodes[a], timed ? time_of(n) : operations);
  }
  return lift;
}

}  // namespace parperf::analysis
