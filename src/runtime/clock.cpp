#include "runtime/clock.hpp"

#if PARPERF_HAVE_TSC
#include <cpuid.h>
#endif

namespace parperf::runtime {

namespace clock_detail {
bool use_tsc = false;
std::uint64_t ns_per_tick_q32 = std::uint64_t{1} << 32;
}  // namespace clock_detail

namespace {

std::uint64_t g_origin_ticks = 0;
std::uint64_t g_origin_mono_ns = 0;
std::uint64_t g_origin_unix_ns = 0;
double g_estimated_ticks_per_ns = 1.0;

// CPUID 0x80000007 EDX bit 8: the TSC runs at a constant rate in every P/C-state ("invariant").
bool cpu_has_invariant_tsc() noexcept {
#if PARPERF_HAVE_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000007u) return false;
  __cpuid(0x80000007u, eax, ebx, ecx, edx);
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

std::uint64_t realtime_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

// A TSC reading and the monotonic time at the same moment: the TSC is read between two monotonic
// reads, and the pair is taken again (a few times at most) when a preemption separated them.
struct ClockPair {
  std::uint64_t ticks;
  std::uint64_t mono_ns;
};

ClockPair read_pair() noexcept {
  ClockPair best{};
  std::uint64_t best_spread = UINT64_MAX;
  for (int attempt = 0; attempt < 5 && best_spread > 1000; ++attempt) {
    const std::uint64_t before = monotonic_ns();
    const std::uint64_t ticks = now_ticks();
    const std::uint64_t after = monotonic_ns();
    if (after - before < best_spread) {
      best_spread = after - before;
      best = ClockPair{ticks, before + (after - before) / 2};
    }
  }
  return best;
}

// Ticks per nanosecond between the origin and now, spinning until the baseline is at least
// `min_baseline_ns` long.
double measure_ticks_per_ns(std::uint64_t min_baseline_ns) noexcept {
  while (monotonic_ns() - g_origin_mono_ns < min_baseline_ns) {
  }
  const ClockPair now = read_pair();
  return static_cast<double>(now.ticks - g_origin_ticks) /
         static_cast<double>(now.mono_ns - g_origin_mono_ns);
}

}  // namespace

void clock_init() noexcept {
  clock_detail::use_tsc = cpu_has_invariant_tsc();
  g_origin_unix_ns = realtime_ns();
  const ClockPair origin = clock_detail::use_tsc ? read_pair() : ClockPair{0, monotonic_ns()};
  g_origin_mono_ns = origin.mono_ns;
  g_origin_ticks = clock_detail::use_tsc ? origin.ticks : now_ticks();
  // 200 us of spinning once at start-up buys thresholds in ticks for the hot path.
  g_estimated_ticks_per_ns = clock_detail::use_tsc ? measure_ticks_per_ns(200000) : 1.0;
  clock_detail::ns_per_tick_q32 = static_cast<std::uint64_t>(4294967296.0 / g_estimated_ticks_per_ns + 0.5);
}

std::uint64_t origin_ticks() noexcept { return g_origin_ticks; }
std::uint64_t origin_unix_ns() noexcept { return g_origin_unix_ns; }
bool clock_uses_tsc() noexcept { return clock_detail::use_tsc; }
double estimated_ticks_per_ns() noexcept { return g_estimated_ticks_per_ns; }

TickConverter calibrate() noexcept {
  TickConverter c;
  c.origin_ticks = g_origin_ticks;
  if (!clock_detail::use_tsc) return c;
  // The rate over the whole run so far (at least the 200 us spun at start): each end is read to
  // within a microsecond (read_pair), so a duration inside a run of length T is converted with an
  // error under 1 us x (duration / T): below 0.05 % once the run has lasted 2 ms, and below a
  // microsecond in any shorter run. No spinning here: it would add to every short program.
  const double ticks_per_ns = measure_ticks_per_ns(200000);
  c.ns_per_tick = 1.0 / ticks_per_ns;
  c.ticks_per_second = static_cast<std::uint64_t>(ticks_per_ns * 1e9 + 0.5);
  return c;
}

}  // namespace parperf::runtime
