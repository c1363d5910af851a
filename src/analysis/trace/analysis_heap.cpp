#include "analysis/trace/analysis_heap.hpp"

#include <malloc.h>

namespace parperf::analysis {

void keep_freed_memory_for_reuse() {
  // 32 MiB is the most glibc accepts on 64-bit (HEAP_MAX_SIZE / 2); larger arrays stay mapped. Both
  // settings also end malloc's own adjustment of them.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

}  // namespace parperf::analysis
