#include "analysis/trace/part_order.hpp"

#include <stdexcept>
#include <vector>

#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/part_sweep.hpp"

namespace parperf::analysis {

NodeOrder order_part(const GraphPart& part, PartExchange& exchange) {
  const ActivityGraph& g = part.graph;
  PartSweep sweep(part, exchange);  // "placed", said to the parts that read the node
  NodeOrder order;
  std::vector<std::uint8_t> placed(g.nodes(), 0);
  const auto place = [&](std::uint32_t k) {
    placed[k] = 1;
    order.push_back(k);
    if (!part.is_ghost(k)) sweep.computed(k, 0);
  };
  bool waits_for_ghost = false;  // a node found not ready waits for a ghost
  bool cycle = false;            // a cycle was found among the part's own nodes
  // Whether `node`'s sources are placed: a ghost once its owner placed it, a hub of the part once its
  // own sources are (then placed at once).
  const auto ready = [&](std::uint32_t node, auto& self) -> bool {
    for (const std::uint32_t e : g.in_edges(node)) {
      const std::uint32_t s = g.edges[e].source;
      if (placed[s] || s == node) continue;
      if (part.is_ghost(s)) {
        if (!sweep.arrived(s)) {
          waits_for_ghost = true;
          return false;
        }
      } else if (!g.is_hub(s) || !self(s, self)) {
        return false;
      }
      place(s);
    }
    return true;
  };
  std::vector<std::uint32_t> cursor;
  std::size_t remaining = 0;
  for (const GraphLocation& l : g.locations) {
    cursor.push_back(l.first);
    remaining += l.end - l.first;
  }
  while (remaining > 0) {
    bool progress = false;
    waits_for_ghost = false;
    for (std::size_t l = 0; l < cursor.size(); ++l)
      while (cursor[l] < g.locations[l].end && ready(cursor[l], ready)) {
        place(cursor[l]++);
        --remaining;
        progress = true;
      }
    if (progress || remaining == 0) continue;
    if (!waits_for_ghost) {
      // A cycle among the part's own nodes. The whole graph's order breaks a cycle at the earliest
      // node of every location stuck at once, which a part cannot tell alone: its stuck node is
      // placed as it is, only so that the other parts, which may wait for its nodes, can finish
      // with it; then all refuse the run together (below).
      std::size_t stuck = cursor.size();
      for (std::size_t l = 0; l < cursor.size(); ++l)
        if (cursor[l] < g.locations[l].end &&
            (stuck == cursor.size() || g.time[cursor[l]] < g.time[cursor[stuck]]))
          stuck = l;
      place(cursor[stuck]++);
      --remaining;
      cycle = true;
      continue;
    }
    // Waits for whichever ghost comes next (not one in particular: the one its owner can place
    // next may be another), having said what this part placed.
    sweep.wait_for_any();
    waits_for_ghost = false;
  }
  // Hubs nothing of the part waits for (another part may), and the ghosts of their sources.
  for (std::uint32_t k = g.first_hub(); k < part.first_ghost; ++k)
    while (!placed[k]) {
      waits_for_ghost = false;
      if (ready(k, ready))
        place(k);
      else if (waits_for_ghost)
        sweep.wait_for_any();
      else {  // a cycle among its hubs: as above
        place(k);
        cycle = true;
      }
    }
  // A ghost no node of the part reached in order (none: each is some edge's source).
  for (std::uint32_t k = part.first_ghost; k < g.nodes(); ++k)
    if (!placed[k]) {
      sweep.ghost_time(k);
      place(k);
    }
  sweep.finish();
  if (any_part(exchange, cycle))
    throw NotByParts("parallel trace analysis: dependencies that form cycles are not yet broken by parts");
  order.shrink_to_fit();
  return order;
}

}  // namespace parperf::analysis
