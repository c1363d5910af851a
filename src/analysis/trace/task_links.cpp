#include "analysis/trace/task_links.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace parperf::analysis {
namespace {

// A task as its rank's locations traced it.
struct Task {
  std::uint32_t created = kNoNode;
  std::uint32_t first = kNoNode, last = kNoNode;  // its first piece's begin, its last piece's end
  std::uint32_t pieces = 0;
  bool traced_creation = false;
  std::vector<std::uint64_t> children;
};

// Who waits: an explicit task by its id, a thread's implicit task by its location (ids are below 2^63).
std::uint64_t waiter(std::uint64_t task, std::uint32_t location) {
  return task != 0 ? task : (std::uint64_t{1} << 63) | location;
}

// In time order per waiter: the tasks it created and its waits.
struct WaiterEvent {
  double time = 0;
  std::uint32_t order = 0;  // of reading: equal times keep it
  std::uint64_t child = 0;  // a creation's task, or 0 for a wait
  const TaskSync* sync = nullptr;
};

void link_rank(const std::vector<const LocationTasks*>& locations, const std::vector<double>& time,
               const std::function<void(std::uint32_t, std::uint32_t, EdgeKind)>& edge,
               TaskLinkCounts& counts) {
  std::unordered_map<std::uint64_t, Task> tasks;
  const auto earlier = [&](std::uint32_t a, std::uint32_t b) {
    return b == kNoNode || (a != kNoNode && time[a] < time[b]);
  };
  for (const LocationTasks* l : locations)
    for (const TaskPiece& p : l->tasks->pieces()) {
      if (p.id == 0) {
        ++counts.unlinked_pieces;
        continue;
      }
      Task& t = tasks[p.id];
      ++t.pieces;
      if (earlier(p.begin, t.first)) t.first = p.begin;
      if (t.last == kNoNode || (p.end != kNoNode && time[p.end] > time[t.last])) t.last = p.end;
    }
  std::map<std::uint64_t, std::vector<WaiterEvent>> by_waiter;
  std::uint32_t order = 0;
  for (const LocationTasks* l : locations) {
    for (const TaskCreation& c : l->tasks->creations()) {
      Task& t = tasks[c.id];
      t.created = c.at;
      t.traced_creation = true;
      if (c.parent != 0) tasks[c.parent].children.push_back(c.id);
      if (c.at != kNoNode)
        by_waiter[waiter(c.parent, l->location)].push_back({time[c.at], order++, c.id, nullptr});
    }
    for (const TaskSync& s : l->tasks->syncs())
      if (s.end != kNoNode) by_waiter[waiter(s.task, l->location)].push_back({time[s.end], order++, 0, &s});
  }
  for (auto& [id, t] : tasks) {
    if (t.pieces == 0) continue;  // created, never run while traced
    if (!t.traced_creation) {
      counts.unlinked_pieces += t.pieces;
      continue;
    }
    edge(t.created, t.first, EdgeKind::task_creation);
    ++counts.creations;
  }
  // A waited-for task's end (and for a group, its descendants' ends) -> the wait's end.
  const auto wait_for = [&](std::uint64_t child, std::uint32_t end, bool descendants, auto& self) -> void {
    const auto t = tasks.find(child);
    if (t == tasks.end()) return;
    if (t->second.pieces > 0) {
      edge(t->second.last, end, EdgeKind::task_wait);
      ++counts.waits;
    }
    if (descendants)
      for (const std::uint64_t grandchild : t->second.children) self(grandchild, end, true, self);
  };
  for (auto& [key, events] : by_waiter) {
    std::sort(events.begin(), events.end(), [](const WaiterEvent& a, const WaiterEvent& b) {
      return std::tie(a.time, a.order) < std::tie(b.time, b.order);
    });
    std::vector<std::uint64_t> pending;  // created since the waiter's previous wait
    for (const WaiterEvent& e : events) {
      if (!e.sync) {
        pending.push_back(e.child);
        continue;
      }
      if (e.sync->kind != TaskSyncKind::barrier)
        for (const std::uint64_t child : pending)
          wait_for(child, e.sync->end, e.sync->kind == TaskSyncKind::taskgroup, wait_for);
      pending.clear();
    }
  }
}

}  // namespace

TaskLinkCounts link_tasks(const std::vector<LocationTasks>& locations, const std::vector<double>& time,
                          const std::function<void(std::uint32_t, std::uint32_t, EdgeKind)>& edge) {
  TaskLinkCounts counts;
  // Task ids are unique within a process: its locations are linked together.
  std::map<std::int64_t, std::vector<const LocationTasks*>> ranks;
  for (const LocationTasks& l : locations) ranks[l.rank].push_back(&l);
  for (const auto& [rank, rank_locations] : ranks) link_rank(rank_locations, time, edge, counts);
  return counts;
}

}  // namespace parperf::analysis
