#include "runtime/memory/sampling.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace parperf::memory {

constinit std::atomic<std::uint32_t> g_sample_threshold{kSampleModulus};

void configure_sampling() noexcept {
  const char* setting = std::getenv("PARPERF_MEM_SAMPLE");
  if (setting == nullptr || *setting == '\0') return;
  char* end = nullptr;
  const double rate = std::strtod(setting, &end);
  if (end == setting || *end != '\0' || !(rate > 0 && rate <= 1)) {
    std::fprintf(stderr, "parperf: PARPERF_MEM_SAMPLE=%s is not a rate in (0, 1]; every access is recorded\n",
                 setting);
    return;
  }
  const double threshold = std::round(rate * kSampleModulus);
  g_sample_threshold.store(threshold < 1 ? 1u : static_cast<std::uint32_t>(threshold),
                           std::memory_order_relaxed);
}

}  // namespace parperf::memory
