#include "analysis/trace/graph_part_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

void put_names(PartBytes& out, const ActivityGraph& g) {
  out.put(static_cast<std::uint64_t>(g.intervals.size()));
  for (const GraphInterval& i : g.intervals)
    out.put_text(i.name), out.put(i.kind), out.put_text(i.file), out.put(i.line);
  out.put(static_cast<std::uint64_t>(g.operations.size()));
  for (const std::string& name : g.operations) out.put_text(name);
  out.put_all(g.stacks);
}

PartNames take_names(PartBytesReader& in) {
  PartNames names;
  for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
    GraphInterval& i = names.intervals.emplace_back();
    i.name = in.take_text();
    i.kind = in.take<std::uint32_t>();
    i.file = in.take_text();
    i.line = in.take<std::int64_t>();
  }
  for (auto n = in.take<std::uint64_t>(); n > 0; --n) names.operations.push_back(in.take_text());
  names.stacks = in.take_all<StackFrame>();
  return names;
}

}  // namespace

PartNames merge_part_names(const std::vector<PartNames>& parts, std::vector<RunNumbers>& numbers,
                           const std::string& directory) {
  PartNames run;
  run.operations.emplace_back();
  run.stacks.emplace_back();
  std::map<std::tuple<std::string, std::uint32_t, std::string, std::int64_t>, std::uint32_t> interval_ids;
  std::unordered_map<std::string, std::uint32_t> operation_ids{{"", 0}};
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> frame_ids;
  numbers.assign(parts.size(), {});
  for (std::size_t p = 0; p < parts.size(); ++p) {
    RunNumbers& n = numbers[p];
    for (const GraphInterval& i : parts[p].intervals) {
      const auto [it, added] = interval_ids.try_emplace(std::make_tuple(i.name, i.kind, i.file, i.line),
                                                        static_cast<std::uint32_t>(run.intervals.size()));
      if (added) run.intervals.push_back(i);
      n.intervals.push_back(it->second);
    }
    for (const std::string& name : parts[p].operations) {
      const auto [it, added] =
          operation_ids.try_emplace(name, static_cast<std::uint32_t>(run.operations.size()));
      if (added) {
        if (run.operations.size() > std::numeric_limits<OperationName>::max())
          throw std::length_error(
              fmt::format("{}: the run's traces name more than {} different operations, more "
                          "than the activity graph can number",
                          directory, std::numeric_limits<OperationName>::max()));
        run.operations.push_back(name);
      }
      n.operations.push_back(it->second);
    }
    // A part's stacks come after their parents (frame 0, the empty stack, first): each is numbered
    // as the run's once its parent is.
    for (std::size_t f = 0; f < parts[p].stacks.size(); ++f) {
      if (f == 0) {
        n.frames.push_back(0);
        continue;
      }
      const StackFrame& frame = parts[p].stacks[f];
      if (frame.parent >= f || frame.interval >= n.intervals.size())
        throw std::logic_error("a part's interval stack before its parent, or of no interval of the part");
      const std::uint32_t parent = n.frames[frame.parent], interval = n.intervals[frame.interval];
      const auto [it, added] =
          frame_ids.try_emplace(std::pair(parent, interval), static_cast<std::uint32_t>(run.stacks.size()));
      if (added) run.stacks.push_back({parent, interval, run.stacks[parent].depth + 1});
      n.frames.push_back(it->second);
    }
  }
  return run;
}

GraphPartDraft read_graph_part(const TraceRun& traces, const RankPartition& ranks, std::uint32_t part,
                               PartExchange& exchange) {
  auto own = std::make_unique<TraceRun>();
  own->ranks.assign(traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part]),
                    traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part + 1]));
  own->clocks = traces.clocks;
  ActivityGraphDraft draft(*own);  // reads its ranks, numbering as it meets them
  const ActivityGraph& g = draft.unlinked();

  // The names, every part's, numbered as the run's.
  PartBytes mine;
  put_names(mine, g);
  std::vector<PartNames> parts;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(mine.bytes())) {
    PartBytesReader in(each);
    parts.push_back(take_names(in));
  }
  const std::string directory = traces.ranks.empty()
                                    ? std::string()
                                    : std::filesystem::path(traces.ranks.front().file).parent_path().string();
  std::vector<RunNumbers> numbers;
  PartNames run = merge_part_names(parts, numbers, directory);
  draft.renumber(std::move(run.intervals), std::move(run.operations), std::move(run.stacks), numbers[part]);

  // The nodes: the parts' locations' in part order.
  GraphPart out;
  out.part = part;
  out.parts = exchange.parts();
  // Phases: once any rank of the run switched recording, every rank has its bounds in them.
  if (any_part(exchange, draft.switched_recording())) draft.make_phases_of_unswitched_ranks();
  struct Extent {
    std::uint64_t locations, nodes, events, phases;
    double start, end;  // of its locations' nodes (start > end: none)
  };
  Extent extent{g.locations.size(),
                g.first_hub(),
                g.events,
                g.phases.size(),
                std::numeric_limits<double>::infinity(),
                -std::numeric_limits<double>::infinity()};
  for (const GraphLocation& l : g.locations)
    if (l.end > l.first) {
      extent.start = std::min(extent.start, g.time[l.first]);
      extent.end = std::max(extent.end, g.time[l.end - 1]);
    }
  const std::vector<Extent> all = gather_each(exchange, extent);
  std::uint64_t locations = 0, nodes = 0, events = 0, phases = 0;
  double start = std::numeric_limits<double>::infinity(), end = -std::numeric_limits<double>::infinity();
  for (std::uint32_t p = 0; p < all.size(); ++p) {
    if (p == part) {
      out.first_location = static_cast<std::uint32_t>(locations);
      out.first_node = static_cast<std::uint32_t>(nodes);
    }
    out.parts_first_node.push_back(static_cast<std::uint32_t>(nodes));
    locations += all[p].locations;
    nodes += all[p].nodes;
    events += all[p].events;
    phases = std::max(phases, all[p].phases);
    start = std::min(start, all[p].start);
    end = std::max(end, all[p].end);
  }
  if (nodes >= kNoNode)
    throw std::length_error(
        fmt::format("{}: the run's traces make {} activity-graph nodes, more than the graph can "
                    "number ({})",
                    directory, nodes, kNoNode - 1));
  out.parts_first_node.push_back(static_cast<std::uint32_t>(nodes));
  out.run_first_hub = static_cast<std::uint32_t>(nodes);
  if (start > end) start = end = 0;
  draft.set_run_extent(start, end, events, phases);
  return {std::move(own), std::move(out), std::move(draft)};
}

}  // namespace parperf::analysis
