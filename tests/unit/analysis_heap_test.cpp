// The analysis's heap (analysis/trace/analysis_heap.hpp): an array the analysis frees is reused by
// its next one of that size, not unmapped and page-faulted in again. Its own test program: the
// setting is process-wide.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "analysis/trace/analysis_heap.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PARPERF_SANITIZER_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PARPERF_SANITIZER_MALLOC 1
#endif
#endif

namespace parperf::analysis {
namespace {

long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Allocates `bytes`, writes every page of them (as the analysis fills a per-node array) and frees it.
void fill_and_free(std::size_t bytes) {
  void* array = std::malloc(bytes);
  ASSERT_NE(array, nullptr);
  std::memset(array, 1, bytes);
  // The compiler may not drop the writes: the array is read back through a volatile pointer.
  EXPECT_EQ(static_cast<volatile unsigned char*>(array)[bytes - 1], 1);
  std::free(array);
}

TEST(AnalysisHeap, AFreedArrayIsReusedWithoutPageFaults) {
#ifdef PARPERF_SANITIZER_MALLOC
  GTEST_SKIP() << "a sanitizer's allocator replaces glibc's malloc, whose settings this tests";
#endif
  keep_freed_memory_for_reuse();
  // 8 MiB: the size of one per-node array of a trace of about a million events; with glibc's
  // defaults the first is mapped and unmapped, the second comes from fresh heap pages, both faulted
  // in page by page.
  constexpr std::size_t kBytes = std::size_t{8} << 20;
  const auto pages = static_cast<long>(kBytes / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  fill_and_free(kBytes);
  const long before = minor_page_faults();
  fill_and_free(kBytes);
  const long faults = minor_page_faults() - before;
  // Reused, the second array faults in none of its pages (a few for the test's own bookkeeping);
  // returned to the system, it faults in every one of them.
  EXPECT_LT(faults, pages / 8) << "the second " << (kBytes >> 20) << " MiB array took " << faults
                               << " page faults of its " << pages
                               << " pages: freed memory was given back to the system, not reused";
}

}  // namespace
}  // namespace parperf::analysis
