#include "runtime/memory/sampling.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace parperf::memory {

constinit std::atomic<std::uint32_t> g_sample_threshold{kSampleModulus};
constinit std::atomic<std::uint32_t> g_burst_length{kDefaultBurstLength};
constinit std::atomic<std::uint32_t> g_mean_gap{kDefaultMeanGap};
constinit std::atomic<bool> g_burst_sampling{false};

namespace {

void configure_rate() noexcept {
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

// A count of accesses in [minimum, 2^30] (half the countdown's range: a gap is drawn up to twice its
// mean).
void configure_count(const char* variable, std::uint64_t minimum,
                     std::atomic<std::uint32_t>& count) noexcept {
  const char* setting = std::getenv(variable);
  if (setting == nullptr || *setting == '\0') return;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(setting, &end, 10);
  if (end == setting || *end != '\0' || value < minimum || value > (1ull << 30)) {
    std::fprintf(
        stderr, "parperf: %s=%s is not a count of accesses in [%llu, 2^30]; the default %u is used\n",
        variable, setting, static_cast<unsigned long long>(minimum), count.load(std::memory_order_relaxed));
    return;
  }
  count.store(static_cast<std::uint32_t>(value), std::memory_order_relaxed);
}

}  // namespace

void configure_sampling() noexcept {
  configure_rate();
  configure_count("PARPERF_MEM_BURST", 1, g_burst_length);
  configure_count("PARPERF_MEM_GAP", 2, g_mean_gap);
}

}  // namespace parperf::memory
