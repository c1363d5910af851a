// The activity graph's OpenMP task edges (activity_graph.hpp), from the task ids of the trace
// (docs/format.md, "Events": a task creation's `match`, the `task` event after each piece's entry).
//
// A task cannot begin before it was created: its creation -> its first piece's begin. A taskwait
// ends after every child of the task that encountered it, created since that task's previous
// taskwait, has ended: each such child's last piece's end -> the taskwait's end. A taskgroup's end
// waits as well for the children's descendants. Tasks that nothing waits for explicitly end before
// the barrier that completes them, which the barrier links already hold (a thread that runs tasks in
// a barrier arrives after them). A taskgroup's begin is not traced (OMPT reports the group only at
// its end): its children are those of the task created since its previous taskwait or taskgroup.
//
// A location reads its thread's events into a TaskReader (points of the builder), the builder maps
// those points to nodes, and link_tasks makes the edges of a rank's locations together: a task may be
// created on one thread and run on another.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/trace/activity_graph.hpp"

namespace parperf::analysis {

enum class TaskSyncKind : std::uint8_t {
  taskwait,   // waits for the current task's children
  taskgroup,  // and their descendants
  barrier,    // every task of the team is done: nothing of before is pending any more
};

struct TaskPiece {
  std::uint64_t id = 0;  // 0: the trace names no task (before 2.2, or its entry was not traced)
  std::uint32_t begin = kNoNode, end = kNoNode;
};
struct TaskCreation {
  std::uint64_t id = 0, parent = 0;  // parent 0: the thread's implicit task
  std::uint32_t at = kNoNode;
};
struct TaskSync {
  std::uint64_t task = 0;  // the task that waits (0: the thread's implicit task)
  std::uint32_t end = kNoNode;
  TaskSyncKind kind = TaskSyncKind::taskwait;
};

// One thread's tasks as its events are read: points (the builder's), then nodes (remap). Every
// interval's entry and exit passes through it: a count, and a stack of the open task pieces only.
class TaskReader {
 public:
  // An interval's entry at `point`, a piece of a task when its site is a task's.
  void entered(bool task_site, std::uint32_t point) {
    ++depth_;
    if (!task_site) return;
    current_.push_back({static_cast<std::uint32_t>(pieces_.size()), depth_});
    pieces_.push_back({0, point, kNoNode});
  }
  void left(std::uint32_t point) {
    if (!current_.empty() && current_.back().depth == depth_) {
      pieces_[current_.back().piece].end = point;
      current_.pop_back();
    }
    if (depth_ > 0) --depth_;
  }
  // A `task` event: the id of the piece just entered.
  void named(std::uint64_t id) {
    if (!current_.empty() && current_.back().depth == depth_ && pieces_[current_.back().piece].id == 0)
      pieces_[current_.back().piece].id = id;
  }
  void created(std::uint64_t id, std::uint32_t point) {
    creations_.push_back({id, current(), point});
    pending_ = true;
  }
  void synced(TaskSyncKind kind, std::uint32_t end) {
    if (kind == TaskSyncKind::barrier && !pending_) return;  // a thread that created nothing: none
    syncs_.push_back({current(), end, kind});
    if (kind == TaskSyncKind::barrier) pending_ = false;
  }

  // Every point held, mapped (to kNoNode when it is dropped).
  template <class F>
  void remap(F&& to) {
    for (TaskPiece& p : pieces_)
      for (std::uint32_t* q : {&p.begin, &p.end})
        if (*q != kNoNode) *q = to(*q);
    for (TaskCreation& c : creations_)
      if (c.at != kNoNode) c.at = to(c.at);
    for (TaskSync& s : syncs_)
      if (s.end != kNoNode) s.end = to(s.end);
  }

  const std::vector<TaskPiece>& pieces() const { return pieces_; }
  const std::vector<TaskCreation>& creations() const { return creations_; }
  const std::vector<TaskSync>& syncs() const { return syncs_; }

 private:
  // The innermost open piece's task: the task current on the thread (0: its implicit task).
  std::uint64_t current() const { return current_.empty() ? 0 : pieces_[current_.back().piece].id; }

  struct OpenPiece {
    std::uint32_t piece, depth;  // the interval depth it was entered at
  };
  std::vector<TaskPiece> pieces_;
  std::vector<TaskCreation> creations_;
  std::vector<TaskSync> syncs_;
  std::vector<OpenPiece> current_;  // innermost last
  std::uint32_t depth_ = 0;         // intervals open
  bool pending_ = false;            // tasks created since the last barrier
};

// A location's tasks, in nodes.
struct LocationTasks {
  std::int64_t rank = 0;
  std::uint32_t location = 0;  // index into the graph's locations: names its implicit task
  const TaskReader* tasks = nullptr;
};

struct TaskLinkCounts {
  std::uint64_t creations = 0, waits = 0;  // edges made
  std::uint64_t unlinked_pieces = 0;       // pieces without an id, or whose creation is not traced
};

// Calls `edge(source, target, kind)` for every task edge of the locations (kNoNode where the end
// lies outside the graph's window), the nodes' times given. Pure.
TaskLinkCounts link_tasks(const std::vector<LocationTasks>& locations, const std::vector<double>& time,
                          const std::function<void(std::uint32_t, std::uint32_t, EdgeKind)>& edge);

}  // namespace parperf::analysis
