#include "runtime/recording_switch.hpp"

#include "runtime/plain_mutex.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/trace_points.hpp"

namespace parperf::runtime {

namespace recording_detail {
std::atomic<std::uint64_t> paused_total{0};
std::atomic<std::uint64_t> paused_since{0};
}  // namespace recording_detail

namespace {

// Switches are rare and may come from several threads at once (each rank's threads, a program's
// own threads): one at a time keeps the pause clock whole.
PlainMutex g_switch_mutex;
bool g_ended = false;

// With the lock held. A resumed clock is settled before recording is seen on, and a pause begins
// on the clock before recording is seen off, so a frame never counts a pause it did not span.
void set_locked(bool on, std::uint64_t now) {
  using namespace recording_detail;
  const std::uint64_t since = paused_since.load(std::memory_order_relaxed);
  if (on && since != 0) {
    paused_total.store(paused_total.load(std::memory_order_relaxed) + ticks_between(since, now),
                       std::memory_order_relaxed);
    paused_since.store(0, std::memory_order_release);
  } else if (!on && since == 0) {
    paused_since.store(now ? now : 1, std::memory_order_release);
  }
  state_detail::recording.store(on, std::memory_order_release);
}

}  // namespace

void start_recording_switch(bool on, std::uint64_t now) noexcept {
  std::lock_guard lock(g_switch_mutex);
  set_locked(on, now);
}

// The switch is process-wide; the event trace notes it in the stream of the thread that switched.
void switch_recording(bool on) noexcept {
  std::lock_guard lock(g_switch_mutex);
  if (g_ended || recording() == on) return;
  const std::uint64_t now = now_ticks();
  set_locked(on, now);
  if (ThreadState* t = thread_detail::current)
    trace_mark(*t, on ? format::TraceEventKind::recording_on : format::TraceEventKind::recording_off, now);
}

void end_recording() noexcept {
  std::lock_guard lock(g_switch_mutex);
  set_locked(false, now_ticks());
  g_ended = true;
}

}  // namespace parperf::runtime
