// The linking of a graph part's nodes with the other parts' (graph_part_build.hpp: link_graph_part).
#include "analysis/trace/graph_part_build.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "analysis/trace/graph_points.hpp"
#include "analysis/trace/part_links.hpp"
#include "analysis/trace/part_order.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "analysis/trace/shmem_instances.hpp"
#include "analysis/trace/tuple_hash.hpp"

namespace parperf::analysis {
namespace {

using OperationKey = std::tuple<std::int64_t, std::uint32_t, std::uint64_t>;
using InstanceKey = std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>;

// An operation of the part's ranks as another part's links need it: its nodes in the run's numbers
// and their times.
struct SentOperation {
  std::int64_t rank;
  std::uint32_t thread;
  std::uint64_t index;
  std::uint32_t nodes[3];  // begin, end, inner (kNoNode: none)
  double times[3];
  std::uint16_t kind, name;
};

// The run's counts, every part's summed: GraphCounts and GraphUnlinked are 64-bit counts and nothing
// else (a field of another kind added to either must be summed here by name).
static_assert(sizeof(GraphCounts) == 15 * sizeof(std::uint64_t) &&
              sizeof(GraphUnlinked) == 11 * sizeof(std::uint64_t));
template <class T>
void sum_counts(PartExchange& exchange, T& counts) {
  T run{};
  for (const T& each : gather_each(exchange, counts)) {
    auto* to = reinterpret_cast<std::uint64_t*>(&run);
    const auto* from = reinterpret_cast<const std::uint64_t*>(&each);
    for (std::size_t i = 0; i < sizeof(T) / sizeof(std::uint64_t); ++i) to[i] += from[i];
  }
  counts = run;
}

// The run's OpenSHMEM barriers and collectives (shmem_instances.hpp), every part's calls on every
// part, so that all make the same instances; each hub held by the part of its first member that
// arrived (else of its first member's end in the run's order, else the first part), as a part cut
// from the whole graph holds it. The other parts' calls an instance's links read become operations
// of slots (`slot_times`): every other member's arrival, on the hub's owner; a broadcast's root's, on
// the parts of its other members.
void shmem_instances_of_run(const ActivityGraphDraft& draft, const GraphPart& part, PartLinks& links,
                            PartExchange& exchange, std::vector<double>& slot_times) {
  ShmemCalls own = draft.shmem_calls(part.first_node);
  links.shmem_without_set = own.without_set;
  const std::uint64_t pes = sum_of_parts(exchange, own.pes);
  PartBytes mine;
  for (const ShmemCall& c : own.calls) mine.put(c);
  std::vector<ShmemCall>& calls = links.shmem_calls;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(mine.bytes()))
    for (PartBytesReader in(each); !in.done();) calls.push_back(in.take<ShmemCall>());
  links.shmem_instances = shmem_instances(calls, pes);
  const auto part_of = [&](std::int64_t rank) { return links.part_of_rank.at(rank); };
  const auto remote = [&](const ShmemCall& c) {
    if (links.own_rank(c.rank)) return;
    graph_points::Operation op;
    op.begin = op.end = op.inner = PartLinks::kRemoteNoNode;
    if (c.begin != kNoNode) {
      op.begin = links.own_nodes + static_cast<std::uint32_t>(links.slot_global.size());
      links.slot_global.push_back(c.begin);
      links.slot_owner.push_back(part_of(c.rank));
      slot_times.push_back(c.begin_time);
    }
    op.kind = c.kind;
    op.name = c.name;
    links.remote.emplace(OperationKey{c.rank, c.thread, c.index}, op);
  };
  for (ShmemInstance& in : links.shmem_instances) {
    if (!in.linked) continue;
    const ShmemCall* m = calls.data() + in.first;
    if (in.root != ShmemInstance::kNoRoot) {
      for (std::size_t i = 0; i < in.count; ++i)
        if (i != in.root && links.own_rank(m[i].rank)) {
          remote(m[in.root]);
          break;
        }
      continue;
    }
    const ShmemCall* first =
        std::find_if(m, m + in.count, [](const ShmemCall& c) { return c.begin != kNoNode; });
    if (first == m + in.count)
      for (const ShmemCall* c = m; c != m + in.count; ++c)
        if (c->end != kNoNode && (first == m + in.count || c->end < first->end)) first = c;
    in.owner = first == m + in.count ? 0 : part_of(first->rank);
    if (in.owner == part.part)
      for (std::size_t i = 0; i < in.count; ++i) remote(m[i]);
  }
}

}  // namespace

GraphPart link_graph_part(GraphPartDraft&& d, const Communication& communication, const TraceRun& traces,
                          const RankPartition& ranks, PartExchange& exchange) {
  GraphPart out = std::move(d.part);
  PartLinks links;
  links.part = out.part;
  links.first_node = out.first_node;
  links.own_nodes = d.draft.unlinked().first_hub();
  for (std::uint32_t p = 0; p < ranks.parts; ++p)
    for (std::size_t r = ranks.first_rank[p]; r < ranks.first_rank[p + 1]; ++r)
      links.part_of_rank.emplace(traces.ranks[r].rank, p);

  // The operations of its ranks that other parts' links reach, sent to them: a message's other side's
  // part, every other member's part of a collective, the target's part of a put.
  const ActivityGraph& nodes = d.draft.unlinked();
  std::vector<PartBytes> sent(ranks.parts);
  std::vector<std::unordered_set<OperationKey, TupleHash>> sent_keys(ranks.parts);
  const auto send_side = [&](const CallSide& side, std::uint32_t to) {
    if (to == out.part || !sent_keys[to].insert({side.rank, side.thread, side.index}).second) return;
    OperationNodes op;
    SentOperation s{side.rank, side.thread, side.index, {kNoNode, kNoNode, kNoNode}, {0, 0, 0}, 0, 0};
    const bool exists = d.draft.operation_nodes(side.rank, side.thread, side.index, op);
    sent[to].put(static_cast<std::uint8_t>(exists));
    if (exists) {
      const std::uint32_t points[3] = {op.begin, op.end, op.inner};
      for (int i = 0; i < 3; ++i)
        if (points[i] != kNoNode) s.nodes[i] = out.first_node + points[i], s.times[i] = nodes.time[points[i]];
      s.kind = op.kind;
      s.name = op.name;
    }
    sent[to].put(s);
  };
  const auto part_of = [&](std::int64_t rank) {
    const auto p = links.part_of_rank.find(rank);
    return p == links.part_of_rank.end() ? out.part : p->second;
  };
  for (const Message& m : communication.messages) {
    if (links.own_rank(m.send.rank)) send_side(m.send, part_of(m.receive.rank));
    if (links.own_rank(m.receive.rank)) send_side(m.receive, part_of(m.send.rank));
  }
  for (const CollectiveInstance& c : communication.collectives)
    for (const CallSide& mine : c.members)
      if (links.own_rank(mine.rank))
        for (const CallSide& other : c.members) send_side(mine, part_of(other.rank));
  for (const LockHandovers* locks :
       {&communication.window_locks, &communication.shmem_locks, &communication.window_epochs})
    for (const LockHandover& h :
         locks->handovers)  // a lock's release (a post, a complete), for its next holder
      if (links.own_rank(h.release.rank)) send_side(h.release, part_of(h.acquisition.rank));
  for (const OneSidedTransfer& t : communication.one_sided)  // for the OpenSHMEM waits the puts end
    if (t.put && format::is_shmem_kind(t.kind) && t.target != t.origin.rank && links.own_rank(t.origin.rank))
      send_side(t.origin, part_of(t.target));
  std::vector<double> slot_times;
  for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, sent))
    for (PartBytesReader in(bytes); !in.done();) {
      const bool exists = in.take<std::uint8_t>() != 0;
      const auto s = in.take<SentOperation>();
      if (!exists) continue;
      graph_points::Operation op;
      std::uint32_t* points[3] = {&op.begin, &op.end, &op.inner};
      for (int i = 0; i < 3; ++i) {
        if (s.nodes[i] == kNoNode) {
          *points[i] = PartLinks::kRemoteNoNode;
          continue;
        }
        *points[i] = links.own_nodes + static_cast<std::uint32_t>(links.slot_global.size());
        links.slot_global.push_back(s.nodes[i]);
        links.slot_owner.push_back(part_of(s.rank));
        slot_times.push_back(s.times[i]);
      }
      op.kind = s.kind;
      op.name = s.name;
      links.remote.emplace(OperationKey{s.rank, s.thread, s.index}, op);
    }
  shmem_instances_of_run(d.draft, out, links, exchange, slot_times);
  d.draft.add_slots(slot_times);

  // The collectives' hubs: numbered in their instances' order over the run, each counted by its
  // first member's part.
  std::vector<InstanceKey> counted;
  d.draft.plan_collective_hubs(communication, links, counted);
  PartBytes mine;
  for (const auto& [hash, ordinal, sequence] : counted) mine.put(hash), mine.put(ordinal), mine.put(sequence);
  std::vector<InstanceKey> all;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(mine.bytes()))
    for (PartBytesReader in(each); !in.done();) {
      const auto hash = in.take<std::uint64_t>();
      const auto ordinal = in.take<std::uint32_t>();
      all.emplace_back(hash, ordinal, in.take<std::uint64_t>());
    }
  std::sort(all.begin(), all.end());
  for (auto& [key, hub] : links.collective_hubs) {
    const auto at = std::lower_bound(all.begin(), all.end(), key);
    if (at == all.end() || *at != key) throw std::logic_error("a collective's hub no part counted");
    hub.first = out.run_first_hub + static_cast<std::uint32_t>(at - all.begin());
  }

  ActivityGraph g = std::move(d.draft).link_part(communication, links);

  // The OpenMP barriers' hubs, after the collectives', part by part.
  std::uint64_t openmp_before = 0, openmp_hubs = 0;
  const std::vector<std::uint64_t> counts = gather_each<std::uint64_t>(exchange, links.openmp_hubs.size());
  for (std::uint32_t p = 0; p < counts.size(); ++p) {
    if (p < out.part) openmp_before += counts[p];
    openmp_hubs += counts[p];
  }
  for (std::size_t i = 0; i < links.openmp_hubs.size(); ++i)
    links.slot_global[links.openmp_hubs[i] - links.own_nodes] =
        out.run_first_hub + static_cast<std::uint32_t>(all.size() + openmp_before + i);
  // The OpenSHMEM instances' hubs, after the OpenMP barriers', in the instances' order.
  const std::uint32_t shmem_first = out.run_first_hub + static_cast<std::uint32_t>(all.size() + openmp_hubs);
  for (const auto& [k, n] : links.shmem_hubs) links.slot_global[k - links.own_nodes] = shmem_first + n;
  std::uint64_t shmem_hubs = 0;
  for (const ShmemInstance& in : links.shmem_instances) shmem_hubs += in.hub != kNoNode ? 1 : 0;
  out.run_nodes = shmem_first + shmem_hubs;

  // Its nodes as a part: its locations' nodes, its hubs, then the ghosts its edges come from, each
  // ascending in the run's numbers.
  std::vector<std::uint8_t> read(g.nodes(), 0);
  g.for_each_edge([&](std::uint32_t, std::uint32_t e) { read[g.edges[e].source] = 1; });
  std::vector<std::pair<std::uint32_t, std::uint32_t>> hubs, ghosts;  // (run's number, slot)
  for (std::uint32_t k = links.own_nodes; k < g.nodes(); ++k) {
    const std::uint32_t slot = k - links.own_nodes;
    if (links.slot_owner[slot] == out.part)
      hubs.emplace_back(links.slot_global[slot], k);
    else if (read[k])
      ghosts.emplace_back(links.slot_global[slot], k);
  }
  std::sort(hubs.begin(), hubs.end());
  std::sort(ghosts.begin(), ghosts.end());
  std::vector<std::uint32_t> local(g.nodes(), kNoNode);
  for (std::uint32_t k = 0; k < links.own_nodes; ++k) local[k] = k;
  ActivityGraph& p = out.graph;
  p.locations = g.locations;
  // The node arrays are the linked graph's, whose own nodes come first as they are; its hubs and
  // ghosts follow them (the slots no edge reads are let go). Copied, the part's graph and the linked
  // one were held at once, the most a part held.
  ActivityGraph slots;
  for (const auto* list : {&hubs, &ghosts})
    for (const auto& [global, k] : *list) {
      local[k] = links.own_nodes + static_cast<std::uint32_t>(slots.time.size());
      out.global_hubs.push_back(global);
      slots.time.push_back(g.time[k]);
      slots.segment.push_back(g.segment[k]);
      slots.stack.push_back(g.stack[k]);
      slots.operation.push_back(g.operation[k]);
    }
  const auto own_then_slots = [&](auto& to, auto& from, auto& slot_values) {
    to = std::move(from);
    to.resize(links.own_nodes);
    to.insert(to.end(), slot_values.begin(), slot_values.end());
  };
  own_then_slots(p.time, g.time, slots.time);
  own_then_slots(p.segment, g.segment, slots.segment);
  own_then_slots(p.stack, g.stack, slots.stack);
  own_then_slots(p.operation, g.operation, slots.operation);
  out.first_ghost = links.own_nodes + static_cast<std::uint32_t>(hubs.size());
  for (const auto& [global, k] : ghosts) out.ghost_owner.push_back(links.slot_owner[k - links.own_nodes]);
  std::vector<GraphEdge> edges;
  std::vector<std::uint32_t> targets;
  std::vector<std::pair<std::uint32_t, std::size_t>> by_target;  // (new target, edge) in the old order
  g.for_each_edge([&](std::uint32_t target, std::uint32_t e) { by_target.emplace_back(local[target], e); });
  std::stable_sort(by_target.begin(), by_target.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  edges.reserve(by_target.size());
  targets.reserve(by_target.size());
  for (const auto& [target, e] : by_target) {
    GraphEdge edge = g.edges[e];
    edge.source = local[edge.source];
    edges.push_back(edge);
    targets.push_back(target);
  }
  // Let go before the part's edges are indexed, which holds them again.
  std::vector<std::pair<std::uint32_t, std::size_t>>().swap(by_target);
  std::vector<GraphEdge>().swap(g.edges);
  std::vector<std::uint32_t>().swap(g.in_edge_begin);
  std::vector<std::uint32_t>().swap(local);
  p.set_edges(edges, std::move(targets));
  p.intervals = std::move(g.intervals);
  p.stacks = std::move(g.stacks);
  p.operations = std::move(g.operations);
  p.phases = std::move(g.phases);
  p.start_ns = g.start_ns;
  p.end_ns = g.end_ns;
  p.events = g.events;
  p.linked = g.linked;
  p.unlinked = g.unlinked;
  sum_counts(exchange, p.linked);
  sum_counts(exchange, p.unlinked);

  // Which parts read its nodes: each part tells the owners of its ghosts.
  std::vector<PartBytes> reads(ranks.parts);
  for (PartBytes& r : reads) r.put(out.part);
  for (std::size_t i = 0; i < ghosts.size(); ++i) reads[out.ghost_owner[i]].put(ghosts[i].first);
  // (node, reader) pairs, sorted: a list per node held an empty vector for each of its nodes (24
  // bytes each, made and let go: 20 ms of a part of 1.4 M nodes) for the few that others read.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> read_by;
  for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, reads)) {
    PartBytesReader in(bytes);
    const auto reader = in.take<std::uint32_t>();
    while (!in.done()) {
      const std::uint32_t k = out.local(in.take<std::uint32_t>());
      if (k == kNoNode || out.is_ghost(k))
        throw std::logic_error("a part reads a node its owner does not hold");
      read_by.emplace_back(k, reader);
    }
  }
  std::sort(read_by.begin(), read_by.end());
  out.read_elsewhere.assign(out.first_ghost);
  out.readers_begin.push_back(0);
  out.readers.reserve(read_by.size());
  for (std::size_t i = 0; i < read_by.size(); ++i) {
    out.read_elsewhere.mark(read_by[i].first);
    out.readers.push_back(read_by[i].second);
    if (i + 1 == read_by.size() || read_by[i + 1].first != read_by[i].first)
      out.readers_begin.push_back(static_cast<std::uint32_t>(out.readers.size()));
  }
  out.read_elsewhere.index();
  p.order = order_part(out, exchange);
  return out;
}

}  // namespace parperf::analysis
