#include "analysis/trace/analysis_heap.hpp"

#include <malloc.h>

namespace parperf::analysis {

void keep_freed_memory_for_reuse() {
  // 32 MiB is the most glibc accepts on 64-bit (HEAP_MAX_SIZE / 2); larger arrays stay mapped. Both
  // settings also end malloc's own adjustment of them.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // One arena for every thread: the analysis's parts that run at once (side_by_side.hpp) then reuse
  // each other's freed blocks. With an arena each, what one part freed was kept for that thread
  // alone, and the process held both parts' peaks: 558 instead of 378 MB for a report of 8 ranks.
  mallopt(M_ARENA_MAX, 1);
}

}  // namespace parperf::analysis
