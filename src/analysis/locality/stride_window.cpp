#include "analysis/locality/stride_window.hpp"

namespace parperf::locality {

namespace {

// The distance modulo 2^64 between word and w is min(word - w, w - word), an unsigned minimum,
// which SSE 4.2 has no instruction for; with both operands biased by 2^63 it is a signed one
// (pcmpgtq), and the biases fold into the two subtractions. Words are below 2^63 + 128, so that
// distance is the true one D when D <= 2^63, and above 2^63 - 128 (far above any limit) otherwise:
// the clamped result is exact.
[[gnu::always_inline]] inline std::uint64_t scan(const std::vector<std::uint64_t>& words, std::uint64_t word,
                                                 std::uint64_t limit) {
  constexpr std::uint64_t kBias = std::uint64_t{1} << 63;
  const std::uint64_t up_base = word + kBias;    // (word - w) + 2^63 = up_base - w
  const std::uint64_t down_base = kBias - word;  // (w - word) + 2^63 = down_base + w
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (const std::uint64_t w : words) {
    const auto up = static_cast<std::int64_t>(up_base - w);
    const auto down = static_cast<std::int64_t>(down_base + w);
    const std::int64_t distance = up < down ? up : down;
    best = distance < best ? distance : best;
  }
  const std::uint64_t nearest = static_cast<std::uint64_t>(best) ^ kBias;
  return nearest < limit ? nearest : limit;
}

// The widest scan this CPU runs.
StrideWindow::Scan scan_for_this_cpu() {
#if defined(__x86_64__)
  __builtin_cpu_init();  // in case this runs in a static initializer, before libgcc's own
  if (__builtin_cpu_supports("avx2")) return StrideWindow::Scan::kAvx2;
  if (__builtin_cpu_supports("sse4.2")) return StrideWindow::Scan::kSse42;
#endif
  return StrideWindow::Scan::kPortable;
}

}  // namespace

StrideWindow::StrideWindow(std::uint32_t size)
    : words_((std::max<std::size_t>(size, 1) + 1) / 2 * 2, kEmpty),
      size_(std::max<std::size_t>(size, 1)),
      scan_(scan_for_this_cpu()) {}

#if defined(__x86_64__)
__attribute__((target("avx2")))
#endif
std::uint64_t
StrideWindow::nearest_avx2(std::uint64_t word, std::uint64_t limit) const {
  return scan(words_, word, limit);
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
#endif
std::uint64_t
StrideWindow::nearest_sse42(std::uint64_t word, std::uint64_t limit) const {
  return scan(words_, word, limit);
}

std::uint64_t StrideWindow::nearest_portable(std::uint64_t word, std::uint64_t limit) const {
  return scan(words_, word, limit);
}

}  // namespace parperf::locality
