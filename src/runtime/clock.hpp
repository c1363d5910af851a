// The time source of the hot path: the invariant TSC where the CPU has one (one instruction, no
// syscall), else CLOCK_MONOTONIC. Ticks are converted to nanoseconds only when a profile is written,
// against a calibration taken over the whole run so far (the longer the baseline, the smaller the error).
#pragma once

#include <cstdint>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PARPERF_HAVE_TSC 1
#else
#define PARPERF_HAVE_TSC 0
#endif

namespace parperf::runtime {

namespace clock_detail {
extern bool use_tsc;  // set once by clock_init(), read-only afterwards
// estimated_ticks_per_ns() as nanoseconds per tick in 32.32 fixed point, set by clock_init(): for
// approximate conversions on the hot path (approximate_ns).
extern std::uint64_t ns_per_tick_q32;
}  // namespace clock_detail

inline std::uint64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

inline std::uint64_t now_ticks() noexcept {
#if PARPERF_HAVE_TSC
  if (__builtin_expect(clock_detail::use_tsc, 1)) return __rdtsc();
#endif
  return monotonic_ns();
}

// Ticks from `earlier` to `later`, never negative: a thread that migrates between cores whose TSCs
// disagree by a few ticks must not record a wrapped-around, astronomically long duration.
inline std::uint64_t ticks_between(std::uint64_t earlier, std::uint64_t later) noexcept {
  return later > earlier ? later - earlier : 0;
}

// Chooses the tick source and records the run's time origin. Call once, before any now_ticks().
void clock_init() noexcept;

// Ticks and nanoseconds of the origin; the CLOCK_REALTIME of the origin.
std::uint64_t origin_ticks() noexcept;
std::uint64_t origin_unix_ns() noexcept;
bool clock_uses_tsc() noexcept;

// `ticks` in nanoseconds at the start-up estimate of the tick rate (good to ~1%): one multiply and
// a shift, for sorting durations into coarse classes on the hot path; never for reported times.
inline std::uint64_t approximate_ns(std::uint64_t ticks) noexcept {
  __extension__ using u128 = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<u128>(ticks) * clock_detail::ns_per_tick_q32) >> 32);
}

// Converts ticks to nanoseconds. Built by calibrate() (async-signal-safe).
struct TickConverter {
  std::uint64_t origin_ticks = 0;
  double ns_per_tick = 1.0;
  std::uint64_t ticks_per_second = 1000000000u;
  // A clock error injected for tests (PARPERF_TEST_CLOCK_SKEW): time stamps move by
  // offset + drift x (time since the origin), durations do not. Stamps stay >= 0.
  std::int64_t skew_offset_ns = 0;
  double skew_drift = 0;

  std::uint64_t duration_ns(std::uint64_t ticks) const noexcept {
    return static_cast<std::uint64_t>(static_cast<double>(ticks) * ns_per_tick + 0.5);
  }
  // A time stamp as nanoseconds since the origin (0 for stamps before it).
  std::uint64_t since_origin_ns(std::uint64_t stamp) const noexcept {
    const std::uint64_t ns = stamp > origin_ticks ? duration_ns(stamp - origin_ticks) : 0;
    if (skew_offset_ns == 0 && skew_drift == 0) return ns;
    const double skewed = static_cast<double>(ns) * (1.0 + skew_drift) + static_cast<double>(skew_offset_ns);
    return skewed > 0 ? static_cast<std::uint64_t>(skewed + 0.5) : 0;
  }
};
TickConverter calibrate() noexcept;

// A rough ticks-per-nanosecond estimate available right after clock_init(), good to ~1%: for
// thresholds, never for reported times.
double estimated_ticks_per_ns() noexcept;

}  // namespace parperf::runtime
