// Rebuilding a forking thread's interval path in a team member's tree (enter_team_region).
//
// A team member runs the parallel region on behalf of the thread that forked it, inside whatever
// intervals that thread had open: the region must land at the same interval path on every thread
// so the analysis merges them into one interval. The member's own tree gets that path as context
// nodes (no time of their own). The forking thread's node identifies the path, so a small
// per-thread cache maps it to the member's node and the walk happens once per (path, member).
#include "runtime/interval_stack.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

Node* team_path_node(ThreadState& t, const Node* encountering) noexcept {
  auto& slot =
      t.team_paths[(reinterpret_cast<std::uintptr_t>(encountering) >> 6) % ThreadState::kTeamPathCache];
  if (slot.encountering == encountering && slot.node) return slot.node;

  // The foreign nodes are immutable once published (site, value, parent), and the fork ordered
  // their creation before this thread joined the team.
  const Node* path[kMaxFrames];
  std::uint32_t length = 0;
  for (const Node* n = encountering; n && n->parent; n = n->parent) {
    if (length == kMaxFrames || length >= config().max_depth) return nullptr;
    path[length++] = n;
  }
  Node* node = t.root;
  while (length > 0) {
    const Node* step = path[--length];
    Node* child = node->find_child(step->site, step->value);
    if (!child) {
      if (t.node_count >= config().max_nodes) return nullptr;
      child = add_child(t.arena, node, step->site, step->value);
      if (!child) return nullptr;
      child->context.set(true);
      ++t.node_count;
    }
    node = child;
  }
  slot.encountering = encountering;
  slot.node = node;
  return node;
}

}  // namespace parperf::runtime
