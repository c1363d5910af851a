#include "analysis/trace/graph_part.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {

std::uint32_t GraphPartition::part_of_location(std::uint32_t location) const {
  // The last part that begins at or before the location (an empty part begins where the next does).
  const auto after = std::upper_bound(first_location.begin(), first_location.end() - 1, location);
  return static_cast<std::uint32_t>(after - first_location.begin()) - 1;
}

RankPartition partition_ranks(const TraceRun& traces, std::uint32_t parts) {
  std::vector<std::uint64_t> events;
  for (const RankTrace& rank : traces.ranks) {
    std::uint64_t n = 0;
    if (rank.trace)
      for (const format::TraceBlock& block : rank.trace->blocks) n += block.header.event_count;
    events.push_back(n);
  }
  return partition_ranks(events, parts);
}

std::uint32_t part_of_rank(const TraceRun& traces, const RankPartition& ranks, std::int64_t rank) {
  const RankTrace* trace = rank_trace(traces, rank);
  if (!trace) return ranks.parts;
  const auto index = static_cast<std::size_t>(trace - traces.ranks.data());
  return static_cast<std::uint32_t>(
      std::upper_bound(ranks.first_rank.begin(), ranks.first_rank.end(), index) - ranks.first_rank.begin() -
      1);
}

RankPartition partition_ranks(const std::vector<std::uint64_t>& events, std::uint32_t parts) {
  if (parts == 0) throw std::invalid_argument("a run cut into no parts");
  RankPartition p;
  p.parts = parts;
  std::uint64_t total = 0;
  for (const std::uint64_t n : events) total += n;
  // A rank goes to the part in whose share of the events it begins: part floor(before * parts / total).
  p.first_rank.assign(parts + 1, events.size());
  std::uint64_t before = 0;
  std::vector<std::uint32_t> part(events.size(), 0);
  for (std::size_t r = 0; r < events.size(); ++r) {
    part[r] = total > 0
                  ? static_cast<std::uint32_t>(std::min<std::uint64_t>(parts - 1, before * parts / total))
                  : 0;
    before += events[r];
  }
  for (std::uint32_t q = parts; q-- > 0;) {
    p.first_rank[q] = p.first_rank[q + 1];
    while (p.first_rank[q] > 0 && part[p.first_rank[q] - 1] >= q) --p.first_rank[q];
  }
  return p;
}

GraphPartition partition_locations(const ActivityGraph& g, const TraceRun& traces,
                                   const RankPartition& ranks) {
  GraphPartition p;
  p.parts = ranks.parts;
  const auto locations = static_cast<std::uint32_t>(g.locations.size());
  // The locations come rank by rank, in the run's order of ranks.
  std::vector<std::uint32_t> part(locations, 0);
  std::size_t r = 0;
  std::uint32_t q = 0;
  for (std::uint32_t l = 0; l < locations; ++l) {
    while (r < traces.ranks.size() && traces.ranks[r].rank != g.locations[l].rank) ++r;
    if (r == traces.ranks.size())
      throw std::logic_error("a graph location of no rank of the run, or out of order");
    while (q + 1 < ranks.parts && ranks.first_rank[q + 1] <= r) ++q;
    part[l] = q;
  }
  p.first_location.assign(ranks.parts + 1, locations);
  for (std::uint32_t k = ranks.parts; k-- > 0;) {
    p.first_location[k] = p.first_location[k + 1];
    while (p.first_location[k] > 0 && part[p.first_location[k] - 1] >= k) --p.first_location[k];
  }
  return p;
}

std::uint32_t GraphPart::local(std::uint32_t node) const {
  const std::uint32_t own = graph.first_hub();
  if (node >= first_node && node - first_node < own) return node - first_node;
  const auto find = [&](auto begin, auto end) -> std::uint32_t {
    const auto it = std::lower_bound(begin, end, node);
    return it != end && *it == node ? own + static_cast<std::uint32_t>(it - global_hubs.begin()) : kNoNode;
  };
  const auto ghosts = global_hubs.begin() + (first_ghost - own);
  const std::uint32_t hub = find(global_hubs.begin(), ghosts);
  return hub != kNoNode ? hub : find(ghosts, global_hubs.end());
}

std::uint32_t GraphPart::part_of_node(std::uint32_t node) const {
  // The last part that begins at or before the node (an empty part begins where the next does).
  const auto after = std::upper_bound(parts_first_node.begin(), parts_first_node.end() - 1, node);
  return static_cast<std::uint32_t>(after - parts_first_node.begin()) - 1;
}

RunEnd run_end(const GraphPart& part, PartExchange& exchange, double end_ns, std::uint32_t last) {
  struct End {
    double end_ns;
    std::uint32_t node;  // the run's number, or kNoNode
  };
  RunEnd run{part.graph.start_ns, kNoNode, 0};
  const std::vector<End> ends =
      gather_each(exchange, End{end_ns, last == kNoNode ? kNoNode : part.global(last)});
  for (std::uint32_t p = 0; p < ends.size(); ++p)
    if (ends[p].node != kNoNode && ends_later(ends[p].end_ns, ends[p].node, run.end_ns, run.node))
      run = {ends[p].end_ns, ends[p].node, p};
  return run;
}

GraphPart cut_graph_part(const ActivityGraph& g, const GraphPartition& partition, std::uint32_t part) {
  GraphPart out;
  out.part = part;
  out.parts = partition.parts;
  out.run_nodes = g.nodes();
  out.run_first_hub = g.first_hub();
  for (std::uint32_t p = 0; p <= partition.parts; ++p) {
    const std::uint32_t l = partition.first_location[p];
    out.parts_first_node.push_back(l < g.locations.size() ? g.locations[l].first : g.first_hub());
  }
  const std::uint32_t first_location = partition.first_location[part];
  const std::uint32_t end_location = partition.first_location[part + 1];
  const std::uint32_t first_hub = g.first_hub();
  out.first_location = first_location;
  out.first_node = first_location < g.locations.size() ? g.locations[first_location].first : first_hub;
  const std::uint32_t end_node =
      end_location > first_location ? g.locations[end_location - 1].end : out.first_node;

  // Who holds each node: a location's by the partition; a hub its first source's part (in order, so
  // that a hub fed by a hub follows it), or its first target's when nothing leads into it; else part 0.
  std::vector<std::uint32_t> owner(g.nodes(), 0);
  for (std::uint32_t l = 0; l < g.locations.size(); ++l)
    std::fill(owner.begin() + g.locations[l].first, owner.begin() + g.locations[l].end,
              partition.part_of_location(l));
  std::vector<std::uint8_t> hub_owned(g.nodes() - first_hub, 0);
  for (const std::uint32_t k : g.order) {
    if (!g.is_hub(k)) continue;
    for (const std::uint32_t e : g.in_edges(k))
      if (g.edges[e].source != k) {
        owner[k] = owner[g.edges[e].source];
        hub_owned[k - first_hub] = 1;
        break;
      }
  }
  g.for_each_edge([&](std::uint32_t target, std::uint32_t e) {
    const std::uint32_t source = g.edges[e].source;
    if (source != target && g.is_hub(source) && !hub_owned[source - first_hub]) {
      owner[source] = owner[target];
      hub_owned[source - first_hub] = 1;
    }
  });

  // Its hubs, then the ghosts its nodes' edges come from, each ascending.
  const auto own = [&](std::uint32_t k) { return owner[k] == part; };
  for (std::uint32_t k = first_hub; k < g.nodes(); ++k)
    if (own(k)) out.global_hubs.push_back(k);
  const std::size_t hubs = out.global_hubs.size();
  std::vector<std::uint8_t> is_ghost(g.nodes(), 0);
  g.for_each_edge([&](std::uint32_t target, std::uint32_t e) {
    const std::uint32_t source = g.edges[e].source;
    if (own(target) && !own(source)) is_ghost[source] = 1;
  });
  for (std::uint32_t k = 0; k < g.nodes(); ++k)
    if (is_ghost[k]) {
      out.global_hubs.push_back(k);
      out.ghost_owner.push_back(owner[k]);
    }

  // Its nodes, with what each holds.
  ActivityGraph& p = out.graph;
  for (std::uint32_t l = first_location; l < end_location; ++l) {
    GraphLocation location = g.locations[l];
    location.first -= out.first_node;
    location.end -= out.first_node;
    p.locations.push_back(location);
  }
  out.first_ghost = end_node - out.first_node + static_cast<std::uint32_t>(hubs);
  const std::uint32_t nodes = end_node - out.first_node + static_cast<std::uint32_t>(out.global_hubs.size());
  std::vector<std::uint32_t> global(nodes);
  for (std::uint32_t k = 0; k < nodes; ++k) global[k] = out.global(k);
  for (const std::uint32_t k : global) {
    p.time.push_back(g.time[k]);
    p.segment.push_back(g.segment[k]);
    p.stack.push_back(g.stack[k]);
    p.operation.push_back(g.operation[k]);
  }

  // The edges into its nodes and hubs, in the run's order, from part nodes.
  std::vector<GraphEdge> edges;
  std::vector<std::uint32_t> targets;
  for (std::uint32_t k = 0; k < out.first_ghost; ++k)
    for (const std::uint32_t e : g.in_edges(global[k])) {
      GraphEdge edge = g.edges[e];
      edge.source = edge.source == global[k] ? k : out.local(edge.source);
      edges.push_back(edge);
      targets.push_back(k);
    }
  p.set_edges(edges, std::move(targets));

  // Its order: the run's, restricted to its nodes and ghosts, with where its nodes are in the run's.
  for (const std::uint32_t k : g.order) {
    if (own(k) || is_ghost[k]) {
      const std::uint32_t local = out.local(k);
      p.order.push_back(local);
    }
  }

  // Which other parts read its nodes' times.
  std::vector<std::vector<std::uint32_t>> readers(out.first_ghost);
  g.for_each_edge([&](std::uint32_t target, std::uint32_t e) {
    const std::uint32_t source = g.edges[e].source;
    if (own(source) && !own(target)) {
      std::vector<std::uint32_t>& r = readers[out.local(source)];
      if (std::find(r.begin(), r.end(), owner[target]) == r.end()) r.push_back(owner[target]);
    }
  });
  out.read_elsewhere.assign(out.first_ghost);
  out.readers_begin.push_back(0);
  for (std::uint32_t k = 0; k < out.first_ghost; ++k) {
    if (readers[k].empty()) continue;
    out.read_elsewhere.mark(k);
    std::sort(readers[k].begin(), readers[k].end());
    out.readers.insert(out.readers.end(), readers[k].begin(), readers[k].end());
    out.readers_begin.push_back(static_cast<std::uint32_t>(out.readers.size()));
  }
  out.read_elsewhere.index();

  // The run's tables and figures, whole; its phases' bounds on its own ranks.
  p.intervals = g.intervals;
  p.stacks = g.stacks;
  p.operations = g.operations;
  for (const GraphPhase& phase : g.phases) {
    GraphPhase& mine = p.phases.emplace_back();
    for (const PhaseBounds& r : phase.ranks)
      if (owner[r.begin] == part && r.begin < first_hub)
        mine.ranks.push_back({r.rank, out.local(r.begin), out.local(r.end)});
  }
  p.start_ns = g.start_ns;
  p.end_ns = g.end_ns;
  p.linked = g.linked;
  p.unlinked = g.unlinked;
  p.events = g.events;
  return out;
}

PhaseSpan phase_span(const GraphPhase& phase, const std::vector<double>& time, PartExchange& exchange) {
  struct Span {
    std::uint8_t ranks;
    PhaseSpan span;
  };
  const Span mine{phase.ranks.empty() ? std::uint8_t{0} : std::uint8_t{1}, phase_span(phase, time)};
  std::optional<PhaseSpan> run;
  for (const Span& s : gather_each(exchange, mine)) {
    if (!s.ranks) continue;
    if (!run) run = s.span;
    run->begin_ns = std::min(run->begin_ns, s.span.begin_ns);
    run->end_ns = std::max(run->end_ns, s.span.end_ns);
  }
  return run.value_or(PhaseSpan{});
}

}  // namespace parperf::analysis
