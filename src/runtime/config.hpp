// Runtime configuration, read once from PARPERF_* environment variables at start-up.
// Every variable is documented in docs/runtime.md; keep the two in step.
#pragma once

#include <cstdint>

namespace parperf::runtime {

// Hard cap on nesting: the per-thread frame stack is a fixed array so the hot path never grows it.
inline constexpr std::uint32_t kMaxFrames = 256;
inline constexpr std::uint32_t kMaxTraceDepth = kMaxFrames;

struct Config {
  bool enabled = true;                   // PARPERF_ENABLE; false also when PARPERF_PID names another process
  bool start_recording = true;           // PARPERF_START_PAUSED=1 starts with recording off
  bool install_signal_handlers = true;   // PARPERF_SIGNALS
  bool quiet = false;                    // PARPERF_QUIET: no informational messages (warnings still print)
  bool launched_by_parperf = false;      // PARPERF_PID set: `parperf run` tells where the profile went
  std::uint32_t max_threads = 1024;      // PARPERF_MAX_THREADS: threads measured; later ones are not
  std::uint32_t max_nodes = 100000;      // PARPERF_MAX_NODES: distinct intervals per thread
  std::uint32_t max_depth = 64;          // PARPERF_MAX_DEPTH: deepest recorded nesting level (program = 0)
  std::uint64_t cpu_sample_ns = 100000;  // PARPERF_CPU_SAMPLE_US: least spacing of OS CPU-time reads
  std::int64_t rank = 0;                 // PARPERF_RANK, else the job launcher's rank variables
  std::int64_t world_size = 1;
  std::int64_t clock_skew_offset_ns = 0;  // PARPERF_TEST_CLOCK_SKEW (tests of the clock correction only)
  double clock_skew_drift = 0;
  char output_dir[4096] = {};  // PARPERF_DIR, else parperf-<program>-<timestamp> in the working directory
  char include_names[1024] =
      {};  // PARPERF_INCLUDE: comma-separated globs; only matching intervals are recorded
  char exclude_names[1024] = {};  // PARPERF_EXCLUDE: comma-separated globs of intervals not to record
  char program_name[256] = {};
  // The event trace (trace_writer.hpp), beside the profile.
  bool trace = false;                              // PARPERF_TRACE
  std::uint32_t trace_buffer_bytes = 1 << 20;      // PARPERF_TRACE_BUFFER: each of a thread's two buffers
  std::uint32_t trace_max_depth = kMaxTraceDepth;  // PARPERF_TRACE_DEPTH: deepest traced interval level
  char trace_dir[4096] = {};  // PARPERF_TRACE_DIR: where the trace is written (node-local), else output_dir
  char trace_filter[1024] = {};             // PARPERF_TRACE_FILTER: comma-separated globs, "-glob" excludes
  std::uint32_t trace_writer_delay_us = 0;  // PARPERF_TEST_TRACE_WRITER_DELAY_US: a slow disk, for tests
  // Call-path sampling (sampler.hpp): samples per second of each thread's clock; 0 = off.
  std::uint32_t sample_hz = 0;     // PARPERF_SAMPLE_HZ
  bool sample_wall_clock = false;  // PARPERF_SAMPLE_CLOCK=wall: threads that wait are sampled too
  bool sample_timer_only = false;  // PARPERF_SAMPLE_SOURCE=timer: POSIX timers, not perf events
  bool sample_no_trap = false;     // PARPERF_SAMPLE_SOURCE=perf-signal: perf events, never by SIGTRAP
  // PARPERF_SAMPLE_SOURCE=perf-buffer: without a signal a sample where it can (perf_sample_buffer.hpp)
  bool sample_buffered = false;
  // PARPERF_SAMPLE_STACK: the stack a buffered sample copies (perf_sample_buffer.hpp's default)
  std::uint32_t sample_stack_bytes = 8192;
  std::uint32_t sample_nodes = 16384;  // PARPERF_SAMPLE_NODES: call-path nodes per thread
};

// Reads the environment (not thread-safe; called once during initialisation).
void load_config(Config& config);

// A PARPERF_* on/off variable (1/0/on/off/yes/no/true/false): `fallback` when unset, or when
// invalid (with a warning).
bool flag_setting(const char* variable, bool fallback) noexcept;

// True when `name` passes PARPERF_INCLUDE / PARPERF_EXCLUDE.
bool name_is_recorded(const Config& config, const char* name);

// True when `name` passes PARPERF_TRACE_FILTER: with include globs, only names matching one of
// them; never a name matching an exclude ("-glob").
bool name_is_traced(const Config& config, const char* name);

}  // namespace parperf::runtime
