// The few process-wide values the hot path reads. All are constant-initialised (no global
// constructors); `recording` is the only one that changes while the program runs.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/config.hpp"

namespace parperf::runtime {

enum class Lifecycle : int {
  uninitialised = 0,
  active = 1,    // measuring
  dormant = 2,   // disabled by configuration, or another process is the one measured
  finished = 3,  // the final profile has been written; later calls are ignored
};

namespace state_detail {
extern std::atomic<int> lifecycle;
extern std::atomic<bool> recording;
extern Config config;
extern std::uint64_t cpu_sample_ticks;
}  // namespace state_detail

inline Lifecycle lifecycle() noexcept {
  return static_cast<Lifecycle>(state_detail::lifecycle.load(std::memory_order_acquire));
}
inline bool recording() noexcept { return state_detail::recording.load(std::memory_order_relaxed); }
inline const Config& config() noexcept { return state_detail::config; }
inline std::uint64_t cpu_sample_ticks() noexcept { return state_detail::cpu_sample_ticks; }

// Initialises the runtime once (idempotent, thread-safe); returns true when it is measuring.
bool ensure_initialised() noexcept;

// Writes the final profile once (exit handlers); `reason` and `signal` go into the file.
void finish_run(int reason, int signal) noexcept;

// The process that initialised the runtime (a vfork child shares its memory, not its pid).
int initialising_pid() noexcept;

}  // namespace parperf::runtime
