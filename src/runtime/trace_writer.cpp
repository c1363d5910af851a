#include "runtime/trace_writer.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_initStaticCCtx: a context in our own workspace, no malloc
#include <zstd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "format/record_writer.hpp"
#include "format/records.hpp"
#include "format/trace_file.hpp"
#include "format/trace_records.hpp"
#include "runtime/clock.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/file_sink.hpp"
#include "runtime/private_memory.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/runtime_thread.hpp"
#include "runtime/sampler.hpp"
#include "runtime/signal_safe_wait.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/write_directory.hpp"

namespace parperf::runtime {
namespace {

using Writer = format::RecordWriter<FileSink>;

// The file, its writer and the compression context: used by the writer thread, then, once that
// has stopped, by the closing thread; never by two at once.
struct TraceFileState {
  int fd = -1;
  alignas(64) std::uint8_t sink_buffer[64 * 1024];
  FileSink* sink = nullptr;
  Writer* writer = nullptr;
  std::uint8_t* block = nullptr;  // a buffer's columns end to end, as stored (trace_events.hpp)
  ZSTD_CCtx* compressor = nullptr;
  std::uint8_t* compressed = nullptr;
  std::size_t compressed_capacity = 0;
  format::TraceSample* sample_staging = nullptr;  // a ring's samples, popped (kSampleBlockSamples)
  std::uint8_t* sample_block = nullptr;           // their encoding
  std::uint64_t process_section_at = 0;
  std::int64_t file_rank = 0;
  char directory[sizeof Config::output_dir] = {};
  char path[sizeof Config::output_dir + 64] = {};  // for messages: the file is `name` in `directory_fd`
  char name[64] = {};
  int directory_fd = -1;
};
constinit TraceFileState* g_file = nullptr;
WriteDirectory g_trace_directory;
alignas(FileSink) std::uint8_t g_sink_storage[sizeof(FileSink)];
alignas(Writer) std::uint8_t g_writer_storage[sizeof(Writer)];

constinit std::atomic<bool> g_started{false};
constinit std::atomic<bool> g_closed{false};    // no more blocks are taken: appends fail from now on
constinit std::atomic<bool> g_stopping{false};  // the writer is asked to stop
constinit std::atomic<bool> g_writer_done{false};
constinit std::atomic<bool> g_failed{false};  // a write failed: blocks are dropped, counted as lost
constinit std::atomic<bool> g_writer_sleeping{false};
constinit std::atomic<std::uint32_t> g_wake{0};  // the futex the writer sleeps on
constinit std::atomic<pid_t> g_writer_tid{0};
constinit std::atomic<std::uint64_t> g_dropped_events{0};
constinit std::atomic<std::uint64_t> g_dropped_samples{0};  // popped, then not written: writing failed

// The most samples a sample block holds: a whole ring.
constexpr std::uint32_t kSampleBlockSamples = SampleRing::kDefaultCapacity;
// Threads waiting for the writer to free a buffer: while there are any, the writer stores blocks
// uncompressed (a write is far faster than compressing), trading bytes on disk for the program's time.
constinit std::atomic<std::uint32_t> g_waiting_threads{0};

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t seen, long timeout_ns) {
  timespec timeout{0, timeout_ns};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
}

void wake_writer() {
  // Paired with the writer's store of g_writer_sleeping and its look at the buffers (both
  // sequentially consistent): either it sees our full buffer, or we see it asleep.
  if (!g_writer_sleeping.load(std::memory_order_seq_cst)) return;
  g_wake.fetch_add(1, std::memory_order_seq_cst);
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&g_wake), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

void report_failure(int error) {
  if (g_failed.exchange(true)) return;
  SignalSafeLine line;
  line << "the event trace stopped: cannot write '" << g_file->path << "': " << strerrordesc_np(error)
       << "; the program continues and its profile is written as usual";
  line.emit();
}

// zstd's level 1 with a context in a fixed workspace; the block's bytes as they are when that does
// not make them smaller (or zstd fails), or when threads are waiting for the writer.
std::span<const std::uint8_t> compress(const std::uint8_t* raw, std::size_t size, bool& compressed) {
  compressed = false;
  if (g_file->compressor && g_waiting_threads.load(std::memory_order_relaxed) == 0) {
    const std::size_t n =
        ZSTD_compressCCtx(g_file->compressor, g_file->compressed, g_file->compressed_capacity, raw, size, 1);
    if (!ZSTD_isError(n) && n < size) {
      compressed = true;
      return {g_file->compressed, n};
    }
  }
  return {raw, size};
}

// Appends the first `published` events of buffer `b` of `trace` as one block.
void write_block(const ThreadTrace& trace, const TraceBuffer& b, std::uint64_t published) {
  const auto fields_size = static_cast<std::uint32_t>(published & 0xffffffffu);
  const auto count = static_cast<std::uint32_t>(published >> 32);
  if (count == 0) return;
  if (g_failed.load(std::memory_order_relaxed)) {
    g_dropped_events.fetch_add(count, std::memory_order_relaxed);
    return;
  }
  const std::size_t size =
      format::gather_trace_block(b.bytes, trace.capacity, count, fields_size, g_file->block);
  if (size == 0) {  // cannot happen for what an encoder published; never write what would not decode
    g_dropped_events.fetch_add(count, std::memory_order_relaxed);
    return;
  }
  bool compressed = false;
  const std::span<const std::uint8_t> encoded = compress(g_file->block, size, compressed);
  format::TraceBlockRecord header;
  header.thread = trace.thread;
  header.compression = static_cast<std::uint32_t>(compressed ? format::TraceCompression::zstd
                                                             : format::TraceCompression::none);
  header.sequence = b.sequence.get();
  header.base_ticks = b.base_ticks;
  header.event_count = count;
  header.raw_bytes = static_cast<std::uint32_t>(size);
  header.encoded_bytes = static_cast<std::uint32_t>(encoded.size());
  format::write_trace_block(*g_file->writer, header, encoded);
  g_file->sink->flush();  // a block is on disk as a whole before the next one is taken
  if (g_file->sink->failed()) {
    g_dropped_events.fetch_add(count, std::memory_order_relaxed);
    report_failure(g_file->sink->error());
  }
}

// Appends the `count` samples of the staging area (a thread's, in order) as one sample block, with
// the samples its ring lost since its previous block.
void write_sample_block(std::uint32_t thread, std::uint32_t count, std::uint64_t lost) {
  if (g_failed.load(std::memory_order_relaxed)) {
    for (std::uint32_t i = 0; i < count; ++i)
      g_dropped_samples.fetch_add(g_file->sample_staging[i].weight, std::memory_order_relaxed);
    return;
  }
  const std::uint64_t base = count ? g_file->sample_staging[0].ticks : 0;
  const std::size_t size =
      format::encode_trace_samples(g_file->sample_staging, count, base, g_file->sample_block);
  bool compressed = false;
  const std::span<const std::uint8_t> encoded = compress(g_file->sample_block, size, compressed);
  format::TraceSampleBlockRecord header;
  header.thread = thread;
  header.compression = static_cast<std::uint32_t>(compressed ? format::TraceCompression::zstd
                                                             : format::TraceCompression::none);
  header.base_ticks = base;
  header.sample_count = count;
  header.raw_bytes = static_cast<std::uint32_t>(size);
  header.encoded_bytes = static_cast<std::uint32_t>(encoded.size());
  header.lost = lost;
  format::write_trace_samples(*g_file->writer, header, encoded);
  g_file->sink->flush();
  if (g_file->sink->failed()) report_failure(g_file->sink->error());
}

// Writes the samples waiting in the thread's ring as sample blocks: at a wake of the writer only when
// the ring is at least a quarter full (a block of a few samples would cost more in its record than
// its samples: at 1 kHz that is every second), at the end (`all`) whatever it holds, and the lost
// count even without samples.
void write_thread_samples(const ThreadState& t, bool all) {
  ThreadSampling* sampling = t.sampling.load(std::memory_order_acquire);
  if (!sampling || !sampling->ring || !g_file->sample_staging) return;
  SampleRing& ring = *sampling->ring;
  if (!all && ring.size() < ring.capacity() / 4) return;
  for (;;) {
    const std::uint32_t count = ring.pop(g_file->sample_staging, kSampleBlockSamples);
    const std::uint64_t lost = ring.lost() - ring.lost_written;
    if (count == 0 && lost == 0) return;
    ring.lost_written += lost;
    write_sample_block(t.index, count, lost);
    if (count < kSampleBlockSamples) return;
  }
}

void write_waiting_samples(bool all) {
  for (ThreadState* t = first_thread(); t; t = t->next) write_thread_samples(*t, all);
}

// A thread's two buffers, the older block first (a reader wants each thread's blocks in order).
std::array<TraceBuffer*, 2> in_sequence(ThreadTrace& trace) {
  TraceBuffer* a = &trace.buffers[0];
  TraceBuffer* b = &trace.buffers[1];
  return b->sequence.get() < a->sequence.get() ? std::array{b, a} : std::array{a, b};
}

// Writes every buffer the threads have handed over, each thread's in sequence order. True when
// there was one.
bool write_full_blocks() {
  bool wrote = false;
  for (ThreadState* t = first_thread(); t; t = t->next) {
    ThreadTrace* trace = t->trace;
    if (!trace) continue;
    for (TraceBuffer* b : in_sequence(*trace)) {
      TraceBufferState expected = TraceBufferState::full;
      if (!b->state.compare_exchange_strong(expected, TraceBufferState::writing, std::memory_order_acquire))
        continue;
      if (const std::uint32_t delay_us = config().trace_writer_delay_us) {  // a slow disk, for tests
        timespec pause{static_cast<time_t>(delay_us / 1'000'000),
                       static_cast<long>(delay_us % 1'000'000) * 1000};
        nanosleep(&pause, nullptr);
      }
      write_block(*trace, *b, b->published.load(std::memory_order_acquire));
      b->state.store(TraceBufferState::free, std::memory_order_release);
      wrote = true;
    }
  }
  return wrote;
}

void* writer_main(void*) {
  g_writer_tid.store(static_cast<pid_t>(syscall(SYS_gettid)), std::memory_order_release);
  prctl(PR_SET_NAME, "parperf-trace", 0, 0, 0);
  while (!g_stopping.load(std::memory_order_acquire)) {
    write_waiting_samples(false);  // before the blocks: a stream of full blocks must not starve the rings
    if (write_full_blocks()) continue;
    const std::uint32_t seen = g_wake.load(std::memory_order_seq_cst);
    g_writer_sleeping.store(true, std::memory_order_seq_cst);
    if (!write_full_blocks() && !g_stopping.load(std::memory_order_seq_cst))
      futex_wait(g_wake, seen, 10'000'000);
    g_writer_sleeping.store(false, std::memory_order_relaxed);
  }
  g_writer_done.store(true, std::memory_order_release);
  return nullptr;
}

// A RecordWriter sink over a small buffer that stands for the bytes at `base` of the file: the
// process section rewritten in place when the rank changed after the file was opened.
class PatchSink {
 public:
  explicit PatchSink(std::uint64_t base) : base_(base) {}
  void write(const void* data, std::size_t size) noexcept {
    if (used_ + size > sizeof bytes_) {
      failed_ = true;
      return;
    }
    std::memcpy(bytes_ + used_, data, size);
    used_ += size;
  }
  std::uint64_t position() const noexcept { return base_ + used_; }
  void patch(std::uint64_t position, const void* data, std::size_t size) noexcept {
    std::memcpy(bytes_ + (position - base_), data, size);
  }
  bool failed() const noexcept { return failed_; }
  bool put_at(int fd) const noexcept {
    return !failed_ && pwrite(fd, bytes_, used_, static_cast<off_t>(base_)) == static_cast<ssize_t>(used_);
  }

 private:
  std::uint64_t base_;
  std::uint8_t bytes_[256] = {};
  std::size_t used_ = 0;
  bool failed_ = false;
};

format::TraceProcessRecord process_record() {
  format::TraceProcessRecord process;
  process.rank = config().rank;
  process.pid = getpid();
  process.origin_ticks = origin_ticks();
  process.ticks_per_second = static_cast<std::uint64_t>(estimated_ticks_per_ns() * 1e9 + 0.5);
  process.clock_source = static_cast<std::uint32_t>(clock_uses_tsc() ? format::ClockSource::tsc
                                                                     : format::ClockSource::monotonic);
  process.skew_offset_ns = config().clock_skew_offset_ns;
  process.skew_drift_ppb = static_cast<std::int64_t>(config().clock_skew_drift * 1e9);
  return process;
}

template <class Sink>
void write_process_section(format::RecordWriter<Sink>& writer) {
  writer.begin_section(static_cast<std::uint32_t>(format::TraceSection::process));
  writer.record(process_record());
  writer.end_section();
}

bool make_path(char* out, std::size_t size, const char* directory, std::int64_t rank) {
  char name[64];
  format::trace_file_name(name, sizeof name, rank);
  const int n = std::snprintf(out, size, "%s/%s", directory, name);
  return n > 0 && static_cast<std::size_t>(n) < size;
}

void warn_not_traced(const char* directory, int error) {
  warn(
      "cannot write the event trace to '%s': %s; the program runs without it, its profile is written as "
      "usual",
      directory, strerrordesc_np(error));
}

// The buffer blocks are gathered in, and the compression context in a workspace of its own. False
// without the first; without the second, blocks are written uncompressed.
bool prepare_block_buffers(std::uint32_t buffer_bytes) {
  g_file->block = static_cast<std::uint8_t*>(allocate_private(buffer_bytes, 64));
  if (!g_file->block) return false;
  const std::size_t workspace_bytes = ZSTD_estimateCCtxSize(1);
  void* workspace = allocate_private(workspace_bytes, 64);
  // Sample blocks, when the threads are to be sampled too (sampling starts after the trace): a ring's
  // samples and their encoding, which the compressed buffer must hold as well.
  std::size_t largest_block = buffer_bytes;
  if (config().sample_hz != 0) {
    constexpr std::size_t sample_bytes = kSampleBlockSamples * format::kMaxSampleBytes;
    g_file->sample_staging = static_cast<format::TraceSample*>(
        allocate_private(kSampleBlockSamples * sizeof(format::TraceSample), 64));
    g_file->sample_block = static_cast<std::uint8_t*>(allocate_private(sample_bytes, 64));
    if (!g_file->sample_block) g_file->sample_staging = nullptr;
    largest_block = std::max(largest_block, sample_bytes);
  }
  g_file->compressed_capacity = ZSTD_compressBound(largest_block);
  g_file->compressed = static_cast<std::uint8_t*>(allocate_private(g_file->compressed_capacity, 64));
  if (workspace && g_file->compressed) g_file->compressor = ZSTD_initStaticCCtx(workspace, workspace_bytes);
  return true;
}

// A child forked without exec has no writer thread: it records nothing more.
void stop_in_forked_child() { g_closed.store(true, std::memory_order_relaxed); }

}  // namespace

bool start_trace() noexcept {
  if (!config().trace || g_started.load()) return false;
  g_file = create_private<TraceFileState>();
  if (!g_file) return false;
  const char* directory = config().trace_dir[0] ? config().trace_dir : config().output_dir;
  const std::size_t length = strnlen(directory, sizeof g_file->directory - 1);
  std::memcpy(g_file->directory, directory, length);
  g_file->directory[length] = '\0';
  g_file->file_rank = config().rank;
  if (!make_path(g_file->path, sizeof g_file->path, directory, g_file->file_rank)) {
    warn_not_traced(directory, ENAMETOOLONG);
    return false;
  }
  // Opened once, and the file made relative to it: a directory swapped for a link during the run
  // cannot redirect the trace (write_directory.hpp).
  g_file->directory_fd = g_trace_directory.open(directory);
  if (g_file->directory_fd < 0) {
    warn_not_traced(directory, -g_file->directory_fd);
    return false;
  }
  format::trace_file_name(g_file->name, sizeof g_file->name, g_file->file_rank);
  unlinkat(g_file->directory_fd, g_file->name,
           0);  // an earlier run's; made afresh, never through a planted link
  g_file->fd =
      open_private_at(g_file->directory_fd, g_file->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
  if (g_file->fd < 0) {
    warn_not_traced(directory, errno);
    return false;
  }
  g_file->sink = new (g_sink_storage) FileSink(g_file->fd, g_file->sink_buffer, sizeof g_file->sink_buffer);
  g_file->writer = new (g_writer_storage) Writer(*g_file->sink);
  g_file->writer->file_header(format::trace_header());
  g_file->process_section_at = g_file->sink->position();
  write_process_section(*g_file->writer);
  g_file->sink->flush();
  if (g_file->sink->failed()) {
    warn_not_traced(directory, g_file->sink->error());
    close(g_file->fd);
    unlinkat(g_file->directory_fd, g_file->name, 0);
    return false;
  }
  pthread_t thread;
  if (!prepare_block_buffers(config().trace_buffer_bytes)) {
    warn_not_traced(directory, ENOMEM);
    close(g_file->fd);
    unlinkat(g_file->directory_fd, g_file->name, 0);
    return false;
  }
  if (create_runtime_thread(&thread, writer_main, nullptr) != 0) {
    warn_not_traced(directory, EAGAIN);
    close(g_file->fd);
    unlinkat(g_file->directory_fd, g_file->name, 0);
    return false;
  }
  pthread_detach(thread);
  pthread_atfork(nullptr, nullptr, stop_in_forked_child);
  g_started.store(true, std::memory_order_release);
  return true;
}

ThreadTrace* attach_thread_trace(std::uint32_t thread_index) noexcept {
  if (!g_started.load(std::memory_order_acquire) || g_closed.load(std::memory_order_relaxed)) return nullptr;
  auto* trace = create_private<ThreadTrace>();
  const std::uint32_t capacity = config().trace_buffer_bytes;
  if (!trace) return nullptr;
  trace->buffers[0].bytes = static_cast<std::uint8_t*>(allocate_private(capacity, 64));
  trace->buffers[1].bytes = static_cast<std::uint8_t*>(allocate_private(capacity, 64));
  if (!trace->buffers[0].bytes || !trace->buffers[1].bytes) {
    warn("out of memory for the event trace of thread %u: its events are not traced", thread_index);
    return nullptr;
  }
  trace->thread = thread_index;
  trace->capacity = capacity;
  const std::uint64_t now = now_ticks();
  trace->buffers[0].state.store(TraceBufferState::filling, std::memory_order_relaxed);
  trace->buffers[0].base_ticks = now;
  trace->buffers[0].sequence.set(0);
  trace->buffers[1].sequence.set(~std::uint64_t{0});  // never filled yet: after every real block
  trace->next_sequence = 1;
  trace->encoder = format::TraceBlockEncoder(trace->buffers[0].bytes, capacity, now);
  return trace;
}

void trace_block_full(ThreadTrace& trace, std::uint64_t now) noexcept {
  if (g_closed.load(std::memory_order_acquire) || trace.capacity == 0) {
    trace.encoder = format::TraceBlockEncoder(trace.buffers[trace.active].bytes, 0, now);
    return;
  }
  TraceBuffer& full = trace.buffers[trace.active];
  full.state.store(TraceBufferState::full, std::memory_order_seq_cst);
  wake_writer();
  TraceBuffer& next = trace.buffers[1 - trace.active];
  std::uint64_t waited = 0;
  if (next.state.load(std::memory_order_acquire) != TraceBufferState::free) {
    // The writer is behind: wait for it, as the program would wait on the disk without it.
    g_waiting_threads.fetch_add(1, std::memory_order_relaxed);
    wait_while(
        [&] {
          return next.state.load(std::memory_order_acquire) != TraceBufferState::free &&
                 !g_closed.load(std::memory_order_relaxed);
        },
        60'000, 20);  // a block is written in well under a millisecond: look often
    g_waiting_threads.fetch_sub(1, std::memory_order_relaxed);
    const std::uint64_t resumed = now_ticks();
    waited = ticks_between(now, resumed);
    trace.writer_wait_ticks.add(waited);
    now = resumed;
    if (next.state.load(std::memory_order_acquire) != TraceBufferState::free) {
      trace.encoder = format::TraceBlockEncoder(full.bytes, 0, now);
      return;
    }
  }
  next.sequence.set(trace.next_sequence++);
  next.base_ticks = now;
  next.published.store(0, std::memory_order_relaxed);
  next.state.store(TraceBufferState::filling, std::memory_order_release);
  trace.active = 1 - trace.active;
  trace.encoder = format::TraceBlockEncoder(next.bytes, trace.capacity, now);
  if (waited && trace.encoder.mark(format::TraceEventKind::writer_wait, now, waited))
    next.published.store(trace.encoder.fields_size() | std::uint64_t{1} << 32, std::memory_order_release);
}

void close_trace() noexcept {
  if (!g_started.load(std::memory_order_acquire) || g_closed.exchange(true, std::memory_order_seq_cst))
    return;
  // A fault inside the writer itself: it cannot wait for itself, and the file may be mid-block.
  if (g_writer_tid.load(std::memory_order_acquire) == static_cast<pid_t>(syscall(SYS_gettid))) return;
  g_stopping.store(true, std::memory_order_seq_cst);
  g_wake.fetch_add(1, std::memory_order_seq_cst);
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&g_wake), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  wait_while([] { return !g_writer_done.load(std::memory_order_acquire); }, 10'000);
  if (!g_writer_done.load(std::memory_order_acquire)) {
    warn("the event trace's writer did not stop; the trace ends with its last written block");
    return;
  }
  std::uint64_t lost = 0;
  std::uint64_t wait_ticks = 0;
  std::uint64_t lost_samples = 0;
  for (ThreadState* t = first_thread(); t; t = t->next) {
    write_thread_samples(*t, true);
    if (const ThreadSampling* sampling = t->sampling.load(std::memory_order_acquire);
        sampling && sampling->ring)
      lost_samples += sampling->ring->lost();
    ThreadTrace* trace = t->trace;
    if (!trace) continue;
    // What the thread handed over and the writer did not take, then what it has filled since.
    for (TraceBuffer* b : in_sequence(*trace)) {
      const TraceBufferState state = b->state.load(std::memory_order_acquire);
      if (state == TraceBufferState::full || state == TraceBufferState::filling)
        write_block(*trace, *b, b->published.load(std::memory_order_acquire));
    }
    lost += trace->lost_events.get();
    wait_ticks += trace->writer_wait_ticks.get();
  }
  const TickConverter clock = calibrate();
  format::TraceClockRecord end;
  end.ticks_per_second = clock.ticks_per_second;
  end.end_ticks = now_ticks();
  lost += g_dropped_events.load(std::memory_order_relaxed);
  end.lost_events = lost;
  end.writer_wait_ns = clock.duration_ns(wait_ticks);
  if (!g_failed.load()) {
    g_file->writer->begin_section(static_cast<std::uint32_t>(format::TraceSection::clock));
    g_file->writer->record(end);
    g_file->writer->end_section();
    g_file->writer->finish();
    g_file->sink->flush();
    if (g_file->sink->failed()) report_failure(g_file->sink->error());
  }
  // The rank may have become known after the file was opened (a collector set it): the process record and
  // the file's name follow it.
  if (config().rank != g_file->file_rank && !g_failed.load()) {
    PatchSink patch(g_file->process_section_at);
    format::RecordWriter<PatchSink> rewriter(patch);
    write_process_section(rewriter);
    char renamed[sizeof g_file->name];
    format::trace_file_name(renamed, sizeof renamed, config().rank);
    if (patch.put_at(g_file->fd)) renameat(g_file->directory_fd, g_file->name, g_file->directory_fd, renamed);
  }
  close(g_file->fd);
  lost_samples += g_dropped_samples.load(std::memory_order_relaxed);
  if (lost_samples && !config().quiet) {
    SignalSafeLine line;
    line << "the event trace lost " << static_cast<long long>(lost_samples)
         << " call-path samples (the writer could not keep up, or writing failed); the profile counts them";
    line.emit();
  }
  if (lost && !config().quiet) {
    SignalSafeLine line;
    line << "the event trace lost " << static_cast<long long>(lost)
         << " events (the writer could not keep up, or writing failed)";
    line.emit();
  }
}

}  // namespace parperf::runtime
