#include "runtime/operation_stats.hpp"

#include "runtime/interval_tree.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {

OperationStats* operation_stats_for(ThreadState& thread, Node& node, const parperf_site* site) noexcept {
  OperationStats* last = nullptr;
  for (OperationStats* s = node.first_operation.load(std::memory_order_relaxed); s;
       s = s->next.load(std::memory_order_relaxed)) {
    if (s->site == site) return s;
    last = s;
  }
  // Bump-allocated in chunks: a thread meets a few dozen operation sites, once each.
  if (thread.operation_chunk_used == ThreadState::kOperationChunk) thread.operation_chunk = nullptr;
  if (!thread.operation_chunk) {
    thread.operation_chunk = static_cast<OperationStats*>(
        allocate_private(sizeof(OperationStats) * ThreadState::kOperationChunk, alignof(OperationStats)));
    if (!thread.operation_chunk) return nullptr;
    thread.operation_chunk_used = 0;
  }
  auto* stats = new (&thread.operation_chunk[thread.operation_chunk_used++]) OperationStats();
  stats->site = site;
  if (last)
    last->next.store(stats, std::memory_order_release);
  else
    node.first_operation.store(stats, std::memory_order_release);
  return stats;
}

}  // namespace parperf::runtime
