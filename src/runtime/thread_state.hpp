// Per-thread measurement state and the process-wide list of threads.
//
// A thread registers on its first call into the runtime (threads created at any time are fine):
// it gets a ThreadState with its own interval tree, a fixed frame stack and a place in a
// lock-free list the writer walks. ThreadStates are never freed, so a profile written after a
// thread ended still holds its data.
#pragma once

#include <atomic>
#include <cstdint>

#include "format/records.hpp"
#include "runtime/config.hpp"
#include "runtime/current_thread.hpp"
#include "runtime/interval_tree.hpp"
#include "runtime/probe_calibration.hpp"
#include "runtime/relaxed.hpp"

namespace parperf::runtime {

// How an open frame is treated when it ends.
enum class FrameMode : std::uint32_t {
  record = 0,       // a recorded interval: its node gets the duration
  transparent = 1,  // filtered out by name: not recorded, but its children attach to the parent's node
};

struct Frame {
  Relaxed<const parperf_site*> site;
  Relaxed<Node*> node;  // the node the frame's children attach to
  Relaxed<std::uint64_t> begin_ticks;
  Relaxed<std::uint64_t> iteration_begin_ticks;  // 0 until the first iteration mark
  Relaxed<std::uint64_t> paused_at_begin;        // paused_ticks(begin_ticks): recording_switch.hpp
  Relaxed<FrameMode> mode;
};

// A user event started on this thread and not yet ended.
struct OpenEvent {
  std::uint32_t event = 0;
  EventStats* stats = nullptr;
  std::uint64_t begin_ticks = 0;
};

struct OperationStats;
struct ThreadTrace;
struct ThreadSampling;
struct PerfSampleBuffer;

struct ThreadState {
  std::uint32_t index = 0;
  Relaxed<format::ThreadKind> kind;  // what created the thread, as far as a collector knows
  std::int64_t os_tid = 0;
  std::uint64_t start_ticks = 0;
  Relaxed<std::uint64_t> end_ticks;
  Relaxed<bool> ended;
  Relaxed<std::uint64_t> dropped;  // entries not recorded: depth limit or out of memory
  ThreadState* next = nullptr;     // registry list

  NodeArena arena;
  std::uint32_t node_count = 0;  // nodes created, bounded by PARPERF_MAX_NODES
  Node* root = nullptr;

  // frames[0] is the root; frames[depth] the innermost open interval.
  std::atomic<std::uint32_t> depth{0};
  // Entries that push no frame: begun while recording was off, past the depth limit, or inside
  // such an entry. They are always the innermost ones, so their ends come first and only count down.
  std::uint32_t unrecorded = 0;
  // The thread's event trace buffers (thread_trace.hpp); null when not tracing. Beside the stack's
  // depth: every interval boundary reads both.
  ThreadTrace* trace = nullptr;
  // The kernel's buffer of the thread's samples when it is sampled without a signal a sample
  // (perf_sample_buffer.hpp), else null: every interval boundary takes the samples waiting in it.
  PerfSampleBuffer* sample_buffer = nullptr;
  // The thread's call-path samples (sampler.hpp); null when not sampled. Set (release) after the
  // thread is published: the profile writer may read it from another thread at any time.
  std::atomic<ThreadSampling*> sampling{nullptr};
  // PARPERF_PROCESS_RUNNING, _STARTING_UP or _SHUTTING_DOWN (collector_api.h): the thread is inside
  // parperf's own start (its registration) or end (writing the profile); the sample handler reads it,
  // and the process's phase (set_process_phase, sampler.hpp) when this one says running.
  Relaxed<std::uint32_t> process_phase;
  Frame frames[kMaxFrames];

  // What this thread's probes cost, measured when it registered (probe_calibration.hpp).
  ProbeCostTicks probe_costs;

  // OS CPU time attribution (see os_cpu_time.hpp).
  std::uint64_t last_cpu_sample_ticks = 0;
  std::uint64_t last_user_ns = 0;
  std::uint64_t last_sys_ns = 0;
  Relaxed<std::uint64_t> sampled_cpu_ns;  // user + sys at the last read, for the writer

  // Time parked in a runtime's thread pool (a worker between teams): the thread exists but executes
  // nothing of the program. `parked_since` is 0 while the thread is not parked (thread_parked()).
  Relaxed<std::uint64_t> parked_ticks;
  Relaxed<std::uint64_t> parked_since;
  Relaxed<std::uint64_t> parked_paused_at;  // paused_ticks(parked_since): a pause is not parked time

  // The node of each recently joined team's interval path (team_path.cpp).
  struct TeamPath {
    const Node* encountering = nullptr;
    Node* node = nullptr;
  };
  static constexpr int kTeamPathCache = 8;
  TeamPath team_paths[kTeamPathCache];

  static constexpr int kOperationChunk = 32;
  OperationStats* operation_chunk = nullptr;
  int operation_chunk_used = 0;

  static constexpr int kMaxOpenEvents = 64;
  OpenEvent open_events[kMaxOpenEvents];
  int open_event_count = 0;
};

// Ends every open interval of the calling thread at `now` and marks it ended (thread exit,
// process exit). Further calls from this thread are ignored.
void close_current_thread(std::uint64_t now) noexcept;

// The head of the registry list (newest first) and the number of registered threads.
ThreadState* first_thread() noexcept;
std::uint32_t thread_count() noexcept;

// Threads that started after PARPERF_MAX_THREADS were registered and are not measured.
std::uint32_t threads_not_measured() noexcept;

// Creates the key whose destructor closes a thread's intervals at its exit; once, at start-up.
void prepare_thread_exit_hook() noexcept;

}  // namespace parperf::runtime
