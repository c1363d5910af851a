// What the OpenMP collector remembers per thread between OMPT callbacks: the teams it forked or
// joined, and the synchronizations, locks, tasks and constructs it has open. Only the owning
// thread touches it; nothing here is read by the profile writer.
#pragma once

#include <omp-tools.h>

#include <cstdint>

#include "runtime/collector.hpp"

namespace parperf::runtime::openmp {

// A parallel region this thread forked; parallel_data->ptr points at it for the team's members.
struct TeamContext {
  CodeSite* site = nullptr;
  const Node* encountering_node = nullptr;  // the forking thread's innermost node before the region
  const ThreadState* encountering_thread = nullptr;
  // This instance of the region among all the process's, for the trace: what pairs the barriers of
  // its members (OpenSync::match).
  std::int64_t instance = 0;
};

// A parallel region this thread runs as a team member (including the forking thread itself).
struct JoinedRegion {
  CodeSite* site = nullptr;                 // null when the region is not measured
  bool forked_here = false;                 // this thread forked the region (it leaves at parallel-end)
  bool left = false;                        // a member that reached the join barrier has left the region
  const Node* encountering_node = nullptr;  // to re-enter the region for tasks run in its join barrier
  std::int64_t team_instance = 0;           // TeamContext::instance; 0 when the region is not measured
};

// How the waiting inside a synchronization is classified (OperationStats wait or sync).
enum class WaitClass : std::uint8_t { wait, sync };

struct OpenSync {
  CodeSite* site = nullptr;              // null: ignore the end (a member's join barrier, already recorded)
  CodeSite* closes_construct = nullptr;  // the work-sharing construct this implicit barrier ends
  std::uint64_t begin = 0;
  std::uint64_t wait_begin = 0;
  std::uint64_t waited = 0;
  std::uint64_t nested_work = 0;  // tasks executed while waiting: not waiting
  bool wait_seen = false;
  WaitClass wait_class = WaitClass::wait;
  // A barrier's team instance, traced as the operation's match: the members of a team meet at its
  // barriers in the same order, so a thread's n-th barrier of an instance is every member's n-th.
  std::int64_t match = 0;
};

struct OpenMutex {
  ompt_wait_id_t wait_id = 0;
  CodeSite* site = nullptr;
  std::uint64_t begin = 0;
  std::uint64_t acquired = 0;
};

struct OpenTask {
  CodeSite* site = nullptr;
  std::uint64_t begin = 0;
  int sync_depth = 0;  // open synchronizations when the task began: it ran inside the innermost
  CodeSite* reentered_region = nullptr;  // run in a join barrier: the region was entered again for it
};

// A work-sharing or masked construct the thread is inside.
struct OpenConstruct {
  CodeSite* site = nullptr;
  int team_level = 0;            // the thread's joined_count when it began
  bool single_executor = false;  // a single this thread executes: its end may never be reported
};

struct OpenMPThread {
  static constexpr int kMaxLevels = 16;
  TeamContext forked[kMaxLevels];
  int forked_count = 0;
  JoinedRegion joined[kMaxLevels];
  int joined_count = 0;

  static constexpr int kMaxConstructs = 16;
  OpenConstruct constructs[kMaxConstructs];
  int construct_count = 0;
  // A work-sharing construct that ended: its frame stays open until we know whether its implicit
  // barrier follows (then the barrier belongs to it) or not (nowait: it ended at construct_end).
  CodeSite* ending_construct = nullptr;
  std::uint64_t construct_end = 0;
  bool nowait_since_barrier = false;  // a nowait construct ended since the last barrier

  static constexpr int kMaxSyncs = 16;
  OpenSync syncs[kMaxSyncs];
  int sync_count = 0;
  static constexpr int kMaxMutexes = 16;
  OpenMutex mutexes[kMaxMutexes];
  int mutex_count = 0;
  static constexpr int kMaxTasks = 64;
  OpenTask tasks[kMaxTasks];
  int task_count = 0;
  // Explicit tasks' ids (task_callbacks.cpp): this thread's number, high, and its count of tasks created.
  std::uint64_t task_id_base = 0;
  std::uint32_t tasks_created = 0;
};

// The calling thread's measurement state and collector state; both null when it is not measured.
struct Measured {
  ThreadState* thread = nullptr;
  OpenMPThread* omp = nullptr;
  explicit operator bool() const { return omp != nullptr; }
};
Measured measured_thread() noexcept;

}  // namespace parperf::runtime::openmp
