// The sample handler and the per-thread timers. (Samples the kernel writes into a buffer instead,
// PARPERF_SAMPLE_SOURCE=perf-buffer, are taken out by the thread itself: buffered_samples.cpp; both
// record through sample_recording.hpp.)
//
// Cost model of one sample (bench/sampling/sample_path_bench.cpp measures parperf's part): the
// kernel's signal delivery and return (1 to 20 µs on a virtual machine, the bulk), one initial-exec
// TLS load for the thread's state, the walk (per frame a cached recipe applied and a range check,
// about 45 ns) down to the first frame it shares with the thread's last walk (walk_memo.hpp: the
// frames above are copied after a check of the words they were read from), and one hash-table probe
// per frame below that in the thread's own table, which stays in its cache. No allocation, lock or
// system call: the table is taken when the thread registers, and a full table counts the sample as
// dropped. errno is saved and restored. At 1 kHz of CPU time that is about 0.1-0.2 % of a thread.
// With the event trace on, one tick-clock read and a push into the thread's sample ring
// (sample_ring.hpp: a few loads and stores) more; without it, one test of a null pointer.
#include "runtime/sampler.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>

#include "format/records.hpp"
#include "runtime/clock.hpp"
#include "runtime/code_modules.hpp"
#include "runtime/collector_api.h"
#include "runtime/diagnostics.hpp"
#include "runtime/pending_samples.hpp"
#include "runtime/perf_event_clock.hpp"
#include "runtime/perf_sample_buffer.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/sample_recording.hpp"
#include "runtime/sample_signal.hpp"
#include "runtime/sanitizer_build.hpp"
#include "runtime/thread_state.hpp"

namespace parperf::runtime {
namespace {

std::atomic<bool> g_active{false};
std::atomic<bool> g_warned_replaced{false};
std::atomic<bool> g_tracing_samples{true};
std::uint64_t g_period_ns = 0;
// What the timers' signals carry, so that the handler tells them from a signal someone else sent.
constinit char g_cookie = 0;

// The signal the timers send: chosen when sampling starts, 0 before.
std::atomic<int> g_signal{0};

// Whether the perf-event clocks signal by a trap: the handler is installed for SIGTRAP too.
std::atomic<bool> g_trap{false};

// The process's phase (PARPERF_PROCESS_*), set by the thread that calls the model's initialisation or
// finalisation; every sampled thread's handler reads it (one relaxed load).
constinit std::atomic<std::uint32_t> g_process_phase{PARPERF_PROCESS_RUNNING};
std::uint32_t current_process_phase() { return g_process_phase.load(std::memory_order_relaxed); }

// The same by time, for the samples a thread takes out of its buffer after the phase changed
// (perf_sample_buffer.hpp): the monotonic time and new phase of the last kPhaseLog switches. A
// process switches a few times (its model's start-up, running, shut-down); a sample older than the
// log gets the oldest phase logged.
constexpr std::uint32_t kPhaseLog = 16;
constinit std::atomic<std::uint64_t> g_phase_since[kPhaseLog]{};
constinit std::atomic<std::uint32_t> g_phase_logged[kPhaseLog]{};
constinit std::atomic<std::uint32_t> g_phase_switches{0};

std::atomic<bool> g_timer_sampled{false};
std::atomic<bool> g_perf_sampled{false};

int sample_signal() { return g_signal.load(std::memory_order_relaxed); }

// A real-time signal whose disposition is still the default, SIGRTMIN+7 when it is (docs/runtime.md),
// else the next one up, then those below it; 0 when the program handles every one.
int free_realtime_signal() {
  const int preferred = SIGRTMIN + 7;
  for (int i = 0; i <= SIGRTMAX - SIGRTMIN; ++i) {
    const int candidate = SIGRTMIN + (preferred - SIGRTMIN + i) % (SIGRTMAX - SIGRTMIN + 1);
    struct sigaction current {};
    if (next_sigaction(candidate, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
        !(current.sa_flags & SA_SIGINFO))
      return candidate;
  }
  return 0;
}

// Whether `info` is our clocks' signal, not one someone else sent with its number: a POSIX timer's
// carries our cookie, a perf event's (POLL_IN) the descriptor of one of our clocks (perhaps closed
// since, its thread ending: a queued signal still arrives).
bool from_our_clock(const siginfo_t* info) {
  if (!info) return false;
  if (info->si_signo == SIGTRAP) return is_cpu_clock_trap(*info);
  if (info->si_code == SI_TIMER) return info->si_value.sival_ptr == &g_cookie;
  return info->si_code == POLL_IN && is_cpu_clock(info->si_fd);
}

// The kernel checks CPU-time timers at its scheduler tick (250 Hz on many kernels): periods that
// expired meanwhile come as the overrun count, and the one path found stands for all of them, so the
// shares stay right while the sample count stays that of the requested rate. A timer whose signal
// is blocked counts its periods the same way.
// A perf event's signal is one period: each overflow queues its own (a real-time signal).
std::uint64_t weight_of(const siginfo_t& info) {
  if (info.si_code != SI_TIMER) return 1;
  return 1 + static_cast<std::uint64_t>(info.si_overrun > 0 ? info.si_overrun : 0);
}

void on_sample(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  if (!from_our_clock(info)) {
    pass_to_program(signal, info, context);
    errno = saved_errno;
    return;
  }
  ThreadState* t = thread_detail::current;
  if (t && t->sample_buffer) {  // the second clock asks for the buffer's samples, not this context's
    take_thread_samples(*t, static_cast<const ucontext_t*>(context));
    errno = saved_errno;
    return;
  }
  if (ThreadSampling* sampling = recording_sampling(t);
      sampling && !counted_apart(*t, *sampling, weight_of(*info), current_process_phase())) {
    std::uintptr_t frames[kMaxSampleFrames];
    const std::uint32_t count = call_path(*static_cast<const ucontext_t*>(context), *sampling, frames, 0);
    record_sample(*t, *sampling, frames, count, weight_of(*info), true);
  }
  errno = saved_errno;
}

// The calling thread's POSIX timer on `clock`, signalling it every `period_ns` (the thread's sampling
// state already published: the handler finds it through the thread's state).
bool start_timer(ThreadSampling& sampling, clockid_t clock, std::uint64_t period_ns) {
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = sample_signal();
  event.sigev_value.sival_ptr = &g_cookie;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  if (timer_create(clock, &event, &sampling.timer) != 0) return false;
  itimerspec period{};
  period.it_interval.tv_sec = static_cast<time_t>(period_ns / 1'000'000'000ull);
  period.it_interval.tv_nsec = static_cast<long>(period_ns % 1'000'000'000ull);
  period.it_value = period.it_interval;
  timer_settime(sampling.timer, 0, &period, nullptr);
  return true;
}

bool our_handler_installed(int signal) {
  struct sigaction current {};
  return next_sigaction(signal, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
         current.sa_sigaction == on_sample;
}

// The clock that asks a thread sampled into a buffer to take its samples out, every
// kSamplesBetweenTakes periods of its CPU time: a perf-event CPU clock (a trap where the samples'
// clocks would trap), precise at any load; a POSIX CPU-time timer where the kernel gives no second
// perf event. The timer is the fallback only: it fires at the scheduler's tick, and only when the
// tick finds the thread running, which on a machine busy with other work can be a tenth as often
// (seen: 100 ms between its signals for 8 ms asked, and the buffer overflowing).
bool start_take_clock(ThreadSampling& sampling) {
  const std::uint64_t period = g_period_ns * kSamplesBetweenTakes;
  const bool trap = g_trap.load(std::memory_order_relaxed) && our_handler_installed(SIGTRAP);
  sampling.clock_fd = open_cpu_clock(period, sample_signal(), trap);
  if (sampling.clock_fd >= 0) {
    if (enable_cpu_clock(sampling.clock_fd)) return true;
    close_cpu_clock(sampling.clock_fd);
    sampling.clock_fd = -1;
  }
  return start_timer(sampling, CLOCK_THREAD_CPUTIME_ID, period);
}

void stop_take_clock(ThreadSampling& sampling) {
  if (sampling.clock_fd >= 0)
    close_cpu_clock(sampling.clock_fd);  // its descriptor stays in clock_fd: a queued signal is still ours
  else
    timer_delete(sampling.timer);
}

// Whether the kernel delivers a perf event's trap to a thread that blocks SIGTRAP later, when it
// unblocks it (Linux 5.18 and later). From 5.13, where traps came, to 5.17 the kernel forced it:
// unblocked, its handler reset to the default, so a sampled thread that blocked every signal for a
// moment would have died of a sample. Those kernels get the descriptor's signal.
bool traps_wait_while_blocked() {
  utsname name{};
  if (uname(&name) != 0) return false;
  const char* p = name.release;
  const auto number = [&p] {
    int value = 0;
    for (; *p >= '0' && *p <= '9'; ++p) value = value * 10 + (*p - '0');
    if (*p == '.') ++p;
    return value;
  };
  const int major = number();
  const int minor = number();
  return major > 5 || (major == 5 && minor >= 18);
}

// Whether a debugger or tracer (gdb, strace) is attached now: it would stop the program at every trap.
bool traced() {
  const int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char text[4096];
  const ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return false;
  text[n] = 0;
  const char* line = std::strstr(text, "TracerPid:");
  if (!line) return false;
  for (line += 10; *line == ' ' || *line == '\t'; ++line) {
  }
  return *line != '0';
}

// Not under ThreadSanitizer, which runs the handler of a synchronous signal such as SIGTRAP at once,
// inside its own runtime, where it defers the others.
#if defined(PARPERF_THREAD_SANITIZED)
constexpr bool kTrapsAllowed = false;
#else
constexpr bool kTrapsAllowed = true;
#endif

// Trap delivery where nothing of the program's depends on SIGTRAP: sampling by perf events, the
// program not handling or ignoring it (its disposition still the default: it could not have set it
// through us yet) and not traced.
bool use_traps(const Config& c) {
  if (!kTrapsAllowed || c.sample_wall_clock || c.sample_timer_only || c.sample_no_trap) return false;
  struct sigaction current {};
  return next_sigaction(SIGTRAP, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
         !(current.sa_flags & SA_SIGINFO) && traps_wait_while_blocked() && !traced();
}

// A forked child has none of the parent's perf buffers (the kernel does not copy their mappings),
// and the runtime is dormant in it: the forking thread, the child's only one, forgets its buffer,
// so that its interval boundaries no longer look into it.
void forget_sample_buffer_in_child() {
  ThreadState* t = thread_detail::current;
  if (!t) return;
  t->sample_buffer = nullptr;
  if (ThreadSampling* sampling = t->sampling.load(std::memory_order_relaxed)) sampling->buffer = nullptr;
}

}  // namespace

// The thread's sampling state when its samples are to be recorded now, else null.
ThreadSampling* recording_sampling(ThreadState* t) {
  ThreadSampling* sampling = t ? t->sampling.load(std::memory_order_acquire) : nullptr;
  return sampling && recording() ? sampling : nullptr;
}

// `walked`: the path is the walk the memo keeps as its latest, none of its frames left out, so the
// table is looked up only for the frames the walk did not copy from the last (walk_memo.hpp).
void record_sample(ThreadState& t, ThreadSampling& sampling, const std::uintptr_t* frames,
                   std::uint32_t count, std::uint64_t weight, bool walked) {
  if (count == 0) return;
  const std::uint32_t depth = t.depth.load(std::memory_order_relaxed);
  const std::uint32_t leaf = add_walked_path(*sampling.table, walked ? sampling.memo : nullptr, frames, count,
                                             t.frames[depth].node.get(), weight);
  // Only samples the table holds: a dropped one has no node to name (the profile counts it).
  if (SampleRing* ring = sampling.ring;
      ring && leaf != CallPathTable::kNoNode && g_tracing_samples.load(std::memory_order_relaxed))
    ring->push({now_ticks(), leaf, static_cast<std::uint32_t>(weight > 0xffffffffu ? 0xffffffffu : weight)});
}

// A sample taken while the process is inside its model's start-up or shut-down (a collector said so,
// collector_api.h), on whichever of the program's threads, or while this thread is inside parperf's
// own start or end, is counted apart and not walked: that time is not the program's, as the
// intervals leave it out too, and its code may be in components loaded since the modules were last
// listed. True when the sample was counted so.
bool counted_apart(const ThreadState& t, const ThreadSampling& sampling, std::uint64_t weight,
                   std::uint32_t process_phase) {
  switch (sample_phase(t.process_phase.get(), process_phase)) {
    case PARPERF_PROCESS_STARTING_UP:
      sampling.table->start_up.add(weight);
      return true;
    case PARPERF_PROCESS_SHUTTING_DOWN:
      sampling.table->shut_down.add(weight);
      return true;
    default:
      return false;
  }
}

// The call path of `context` into `frames` (kMaxSampleFrames), its first `skipped` frames left out.
// A walk that stopped before the thread's first frame, and not for want of room, gets an outermost
// frame standing for the callers it could not find (format::kUnwindingStopped): the report counts
// those samples and shows below which function their callers were lost.
// `stack`: the thread's stack, or a sample's copy of its top (perf_sample_buffer.hpp).
std::uint32_t call_path(const ucontext_t& context, const ThreadSampling& sampling, std::uintptr_t* frames,
                        std::uint32_t skipped, const StackBounds* stack) {
  bool whole = false;
  const std::uint32_t room = kMaxSampleFrames - 1;
  std::uint32_t count = walk_stack(context, stack ? *stack : sampling.stack, frames, room, &whole,
                                   sampling.unwind, sampling.memo);
  if (count <= skipped) return 0;
  const bool cut = count == room;
  count -= skipped;
  for (std::uint32_t i = 0; i < count; ++i) frames[i] = frames[i + skipped];
  if (!whole && !cut) frames[count++] = format::kUnwindingStopped;
  return count;
}

std::uint32_t process_phase_at(std::uint64_t time_ns) {
  const std::uint32_t switches = g_phase_switches.load(std::memory_order_acquire);
  const std::uint32_t oldest = switches > kPhaseLog ? switches - kPhaseLog : 0;
  for (std::uint32_t i = switches; i > oldest; --i)
    if (g_phase_since[(i - 1) % kPhaseLog].load(std::memory_order_relaxed) <= time_ns)
      return g_phase_logged[(i - 1) % kPhaseLog].load(std::memory_order_relaxed);
  return switches > kPhaseLog ? g_phase_logged[oldest % kPhaseLog].load(std::memory_order_relaxed)
                              : PARPERF_PROCESS_RUNNING;
}

void start_sampling() noexcept {
  const Config& c = config();
  if (c.sample_hz == 0) return;
  const int signal = free_realtime_signal();
  if (signal == 0) {
    warn("the program handles every real-time signal: no samples are taken (sampling needs one)");
    return;
  }
  refresh_code_modules();
  g_period_ns = 1'000'000'000ull / c.sample_hz;
  struct sigaction action {};
  action.sa_sigaction = on_sample;
  // SA_RESTART: a sample interrupting a read or a wait must not make it fail with EINTR.
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (next_sigaction(signal, &action, nullptr) != 0) return;
  if (use_traps(c) && next_sigaction(SIGTRAP, &action, nullptr) == 0)
    g_trap.store(true, std::memory_order_relaxed);
  if (c.sample_buffered) pthread_atfork(nullptr, nullptr, forget_sample_buffer_in_child);
  g_signal.store(signal, std::memory_order_relaxed);
  g_active.store(true, std::memory_order_release);
}

void set_process_phase(std::uint32_t phase) noexcept {
  const std::uint32_t slot = g_phase_switches.load(std::memory_order_relaxed) % kPhaseLog;
  g_phase_since[slot].store(monotonic_ns(), std::memory_order_relaxed);
  g_phase_logged[slot].store(phase, std::memory_order_relaxed);
  g_phase_switches.fetch_add(1, std::memory_order_release);
  g_process_phase.store(phase, std::memory_order_relaxed);
}

int sampler_signal() noexcept { return sampling_active() ? sample_signal() : 0; }

int sampler_trap_signal() noexcept {
  return sampling_active() && g_trap.load(std::memory_order_relaxed) ? SIGTRAP : 0;
}

bool sampling_active() noexcept { return g_active.load(std::memory_order_acquire); }

std::uint64_t sample_period_ns() noexcept { return sampling_active() ? g_period_ns : 0; }

void start_thread_sampling(ThreadState& t) noexcept {
  if (!sampling_active()) return;
  if (!our_handler_installed(sample_signal())) {
    if (!g_warned_replaced.exchange(true))
      warn(
          "the program replaced the handler of signal %d, which sampling uses: later threads are not sampled",
          sample_signal());
    return;
  }
  // A library loaded since the last thread started: its code becomes walkable.
  refresh_code_modules();
  auto* sampling = create_private<ThreadSampling>();
  if (!sampling) return;
  sampling->table = create_call_path_table(config().sample_nodes);
  if (!sampling->table) return;
  sampling->unwind = create_private<UnwindCache>();  // without it, each walk reads the tables afresh
  sampling->memo = create_private<WalkMemo>();       // without it, each walk steps every frame
  // Samples go into the event trace too when the thread is traced (the trace is attached first).
  if (t.trace && !(sampling->ring = create_sample_ring()))
    warn("out of memory for the sample ring of thread %u: its samples are not in the event trace", t.index);
  const int here = 0;
  sampling->stack = stack_bounds_of(reinterpret_cast<std::uintptr_t>(&here));

  // Without a signal a sample where asked and the kernel allows it; the event trace's samples need
  // the time of each as the handler reads it, so a traced thread keeps the signal.
  if (config().sample_buffered && config().sample_hz <= kMostBufferedHz && !t.trace &&
      !config().sample_wall_clock && buffered_sampling_supported()) {
    auto* buffer = create_private<PerfSampleBuffer>();
    if (buffer && open_sample_buffer(*buffer, g_period_ns, config().sample_stack_bytes)) {
      sampling->handler_takes = create_private<HandlerTakes>();  // without it: samples in the handler cut
      sampling->buffer = buffer;
      t.sampling.store(sampling, std::memory_order_release);
      t.sample_buffer = buffer;
      if (start_take_clock(*sampling)) {
        if (enable_sample_buffer(*buffer)) {
          g_perf_sampled.store(true, std::memory_order_relaxed);
          return;
        }
        stop_take_clock(*sampling);
      }
      t.sample_buffer = nullptr;
      sampling->buffer = nullptr;
      close_sample_buffer(*buffer);
      t.sampling.store(nullptr, std::memory_order_release);
    }
  }
  // The perf-event CPU clock where the kernel allows it: published before it runs, so that the
  // handler knows its descriptor from the first signal.
  if (!config().sample_wall_clock && !config().sample_timer_only) {
    // By a trap while SIGTRAP still reaches our handler (only a sanitizer build's program can have
    // replaced it: elsewhere the program's sigaction comes to us).
    const bool trap = g_trap.load(std::memory_order_relaxed) && our_handler_installed(SIGTRAP);
    sampling->clock_fd = open_cpu_clock(g_period_ns, sample_signal(), trap);
    if (sampling->clock_fd >= 0) {
      t.sampling.store(sampling, std::memory_order_release);
      if (enable_cpu_clock(sampling->clock_fd)) {
        g_perf_sampled.store(true, std::memory_order_relaxed);
        return;
      }
      close_cpu_clock(sampling->clock_fd);  // never enabled: it sent nothing
      sampling->clock_fd = -1;
    }
  }
  const clockid_t clock = config().sample_wall_clock ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
  // Published before the timer runs: the handler finds the table through the thread's state.
  t.sampling.store(sampling, std::memory_order_release);
  if (!start_timer(*sampling, clock, g_period_ns)) {
    t.sampling.store(nullptr, std::memory_order_release);
    warn("cannot create a sampling timer (errno %d): this thread is not sampled", errno);
    return;
  }
  g_timer_sampled.store(true, std::memory_order_relaxed);
}

int held_sample_signal() noexcept {
  if (!sampling_active()) return 0;
  const ThreadState* t = thread_detail::current;
  return t && t->sampling.load(std::memory_order_acquire) ? sample_signal() : 0;
}

__attribute__((noinline)) void record_held_samples(std::uintptr_t frame) noexcept {
  // An instruction of the caller (the wrapper whose frame `frame` is), for the path's innermost frame.
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  const int saved_errno = errno;
  sigset_t ours;
  sigemptyset(&ours);
  sigaddset(&ours, sample_signal());
  siginfo_t info{};
  const timespec now{0, 0};
  // The raw system call: the library's own sigtimedwait is one of the calls it keeps whole.
  if (syscall(SYS_rt_sigtimedwait, &ours, &info, &now, _NSIG / 8) == sample_signal()) {
    if (!from_our_clock(&info)) {
      // The program's own signal of that number: sent again, so that its handler gets it, with its
      // context, as soon as the wrapper unblocks the signal. The kernel lets only the main thread
      // queue a kill's or tgkill's information again; elsewhere tgkill sends the same signal.
      const long tid = syscall(SYS_gettid);
      if (syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, sample_signal(), &info) != 0)
        syscall(SYS_tgkill, getpid(), tid, sample_signal());
    } else if (ThreadState* t = thread_detail::current; t && t->sample_buffer) {
      take_thread_samples(*t);  // the buffer's half-full signal: its samples
    } else if (ThreadSampling* sampling = recording_sampling(t)) {
      if (counted_apart(*t, *sampling, weight_of(info), current_process_phase())) {
        errno = saved_errno;
        return;
      }
      // From this function's own registers, so that the walk reads the call-frame tables like the
      // handler's: the path starts at the wrapper (frame 1), named by the call it keeps whole.
      ucontext_t context;
      std::uintptr_t frames[kMaxSampleFrames];
      std::uint32_t count = 0;
      if (getcontext(&context) == 0) count = call_path(context, *sampling, frames, 1);
      if (count == 0) count = walk_stack_from_frame(pc, frame, sampling->stack, frames, kMaxSampleFrames);
      record_sample(*t, *sampling, frames, count, weight_of(info), false);  // its first frame left out
    }
  }
  errno = saved_errno;
}

void stop_tracing_samples() noexcept {
  g_tracing_samples.store(false, std::memory_order_relaxed);
  // The writing thread's own handler sees it at once (it runs on this thread between instructions).
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

void stop_thread_sampling(ThreadState& t) noexcept {
  // The table stays: the profile written later holds the thread's samples.
  ThreadSampling* sampling = t.sampling.load(std::memory_order_acquire);
  if (!sampling) return;
  if (PerfSampleBuffer* buffer = sampling->buffer) {
    stop_take_clock(*sampling);
    take_thread_samples(t);
    t.sample_buffer = nullptr;  // before it goes: a late signal finds no buffer
    std::atomic_signal_fence(std::memory_order_seq_cst);
    close_sample_buffer(*buffer);
    return;
  }
  if (sampling->clock_fd >= 0)
    close_cpu_clock(sampling->clock_fd);  // its descriptor stays in clock_fd: a queued signal is still ours
  else
    timer_delete(sampling->timer);
}

SampleSources sample_sources() noexcept {
  const bool timer = g_timer_sampled.load(std::memory_order_relaxed);
  const bool perf = g_perf_sampled.load(std::memory_order_relaxed);
  return timer && perf ? SampleSources::both
         : perf        ? SampleSources::perf_event
         : timer       ? SampleSources::timer
                       : SampleSources::none;
}

}  // namespace parperf::runtime
