// The interval stack as collectors use it: the same frames, nodes and rules as the annotation API
// (interval_api.cpp), at time stamps the collector has already read, plus the two things only
// collectors need: joining another thread's team region, and operation statistics
// (synchronizations at a site). ThreadState and Node are handles here: a collector passes them
// back, it never reads them.
#pragma once

#include <cstdint>

#include "parperf/parperf.h"

namespace parperf::runtime {

struct ThreadState;
struct Node;

// Enter and leave an interval at `now`. Every enter must be matched by a leave of the same site,
// whether or not the entry was recorded (recording off, depth limit): the stack stays balanced.
void enter_interval(ThreadState& t, parperf_site* site, std::int64_t value, std::uint64_t now) noexcept;
void leave_interval(ThreadState& t, const parperf_site* site, std::uint64_t now) noexcept;

// Enters `site`, a parallel region that another thread encountered while its innermost node was
// `encountering`: a team member's work belongs to the interval path of the thread that forked the
// team, so the path is rebuilt in t's tree (as context nodes, created once and cached) and the
// region entered below it. Leave with leave_interval.
void enter_team_region(ThreadState& t, const Node* encountering, parperf_site* site,
                       std::uint64_t now) noexcept;

// The node in t's tree with the same interval path as `encountering` (a node of another thread);
// null when the depth or node limits cut it.
Node* team_path_node(ThreadState& t, const Node* encountering) noexcept;

// A chunk or iteration of the innermost interval begins (loop schedules).
void mark_iteration(ThreadState& t, std::uint64_t now) noexcept;
// The innermost interval's last iteration or chunk ends here, before the interval does.
void end_iteration(ThreadState& t, std::uint64_t now) noexcept;

// One operation at `site` within the innermost interval, begun at `start` (0: an instant, now):
// its duration and the parts of it spent waiting (wait: before the operation proper; sync: at the
// end of a work-sharing construct). `match` goes to the trace only: what pairs the operation with
// those of other threads (docs/format.md, "Events").
void record_operation(ThreadState& t, parperf_site* site, std::uint64_t start, std::uint64_t duration,
                      std::uint64_t wait, std::uint64_t sync, std::int64_t match = 0) noexcept;

// Names, in the trace only, the work item that the entry of the innermost interval just made runs
// (an explicit task, by the id its creation carried as `match`): a `task` event after that `enter`
// (docs/format.md). Nothing when the entry was not traced. The profile never sees the id, so it does
// not grow with the number of items.
void trace_entry_item(ThreadState& t, std::uint64_t id, std::uint64_t now) noexcept;

// The node that operations and children attach to now.
Node* innermost_node(ThreadState& t) noexcept;

}  // namespace parperf::runtime
