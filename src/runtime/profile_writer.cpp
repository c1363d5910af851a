#include "runtime/profile_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "format/record_writer.hpp"
#include "format/run_directory.hpp"
#include "runtime/call_path_section.hpp"
#include "runtime/clock.hpp"
#include "runtime/code_sites.hpp"
#include "runtime/collector_registry.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/file_sink.hpp"
#include "runtime/operation_stats.hpp"
#include "runtime/os_cpu_time.hpp"
#include "runtime/recording_switch.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/runtime_thread.hpp"
#include "runtime/sampler.hpp"
#include "runtime/signal_safe_wait.hpp"
#include "runtime/site_registry.hpp"
#include "runtime/thread_state.hpp"
#include "runtime/user_events.hpp"
#include "runtime/write_directory.hpp"

#ifndef PARPERF_VERSION
#define PARPERF_VERSION "unknown"
#endif

namespace parperf::runtime {
namespace {

using Writer = format::RecordWriter<FileSink>;

char g_hostname[256] = "unknown";
char g_command_line[4096] = "";
std::atomic<bool> g_warned_unwritable{false};

std::string_view view(const char* text) {
  return text ? std::string_view(text, std::strlen(text)) : std::string_view();
}

// Appends `text` to the path buffer; false when it does not fit.
bool append(char* path, std::size_t size, const char* text) {
  const std::size_t used = std::strlen(path);
  const std::size_t length = std::strlen(text);
  if (used + length + 1 > size) return false;
  std::memcpy(path + used, text, length + 1);
  return true;
}

void warn_unwritable(const char* dir, int error) {
  if (g_warned_unwritable.exchange(true)) return;
  SignalSafeLine line;
  line << "cannot write the profile to '" << dir << "': " << strerrordesc_np(error)
       << "; the program continues without writing a profile";
  line.emit();
}

// The intervals a thread has open, for counting them up to now, and the CPU time it used since
// its last boundary read (a thread computing inside one long interval has no boundary to read it
// at), charged to the innermost open node. The kernel's per-thread clock gives user + sys together;
// the tail is written as user time.
//
// When the process ends (every write but a flush), the `program` interval of each thread still
// running ends with it: that entry is complete, not open. Entries inside it that are still open
// (an exit() or a fatal signal in the middle of an interval) stay open and are marked so.
struct OpenFrames {
  bool process_ends = false;
  const Node* root = nullptr;  // the thread's `program` node while its entry is open
  const Node* nodes[kMaxFrames] = {};
  std::uint64_t begins[kMaxFrames] = {};
  std::uint64_t paused_at_begins[kMaxFrames] = {};
  std::uint32_t count = 0;
  const Node* innermost = nullptr;
  std::uint64_t unsampled_cpu_ns = 0;

  void collect(const ThreadState& t) {
    count = 0;
    root = nullptr;
    innermost = nullptr;
    unsampled_cpu_ns = 0;
    if (t.ended.get()) return;
    root = t.frames[0].node.get();
    const std::uint32_t depth = t.depth.load(std::memory_order_acquire);
    if (depth < kMaxFrames) innermost = t.frames[depth].node.get();
    const std::uint64_t cpu = thread_cpu_ns(t.os_tid);
    const std::uint64_t sampled = t.sampled_cpu_ns.get();
    unsampled_cpu_ns = cpu > sampled ? cpu - sampled : 0;
    for (std::uint32_t d = 0; d <= depth && d < kMaxFrames; ++d) {
      const Frame& f = t.frames[d];
      if (f.mode.get() != FrameMode::record) continue;
      nodes[count] = f.node.get();
      begins[count] = f.begin_ticks.get();
      paused_at_begins[count] = f.paused_at_begin.get();
      ++count;
    }
  }
  const std::uint64_t* begin_of(const Node* node) const {
    for (std::uint32_t i = 0; i < count; ++i)
      if (nodes[i] == node) return &begins[i];
    return nullptr;
  }
  // The recorded time of the open entry whose begin begin_of() gave: without the paused time.
  std::uint64_t recorded_until(const std::uint64_t* begin, std::uint64_t now) const {
    return recorded_ticks(*begin, paused_at_begins[begin - begins], now);
  }
};
// What one write works with. A flush and the final write may run at once (see write_profile), so
// each has its own.
struct WriteSlot {
  std::uint8_t buffer[64 * 1024] = {};
  OpenFrames open_frames;
};
constinit WriteSlot g_flush_slot;
constinit WriteSlot g_final_slot;

// A thread read while it runs: its record's end is `now`, taken before its nodes are read, and an
// interval that ends between the two readings brings that much more time into its node. The report
// lifts a parent to its nested intervals (snapshot_skew.hpp) but holds every node to the thread's
// lifetime, which tells damage: a node beyond it makes the profile refused. `lifetime_ns` is 0 for a
// thread read at rest; `outgrown` is set when a node's time went beyond the lifetime, and the profile
// is then written again (write_profile). Beyond by more than half what the report forgives (1 % and
// 1 µs, profile_invariants.hpp): the lifetime and a node's time are converted from ticks apart
// (a nanosecond of rounding each), and an injected test drift of up to 0.2 % moves one against the
// other, which must not make every profile of a run with running threads be written three times.
struct RunningThread {
  std::uint64_t lifetime_ns = 0;
  bool outgrown = false;
  void check(std::uint64_t time_ns) {
    if (lifetime_ns > 0 && time_ns > lifetime_ns + lifetime_ns / 200 + 500) outgrown = true;
  }
};

void write_node(Writer& w, Node& node, std::uint32_t index, std::uint32_t parent, const TickConverter& clock,
                std::uint64_t now, const OpenFrames& open_frames, RunningThread& running) {
  node.written_index = index;
  format::NodeRecord r;
  r.parent = parent;
  r.site = node.site->id_;
  r.value = node.value;
  format::DurationStats entries = duration_record(node.entries, clock);
  r.last_begin_ns = clock.since_origin_ns(node.last_begin_ticks.get());
  if (const std::uint64_t* begin = open_frames.begin_of(&node)) {
    const std::uint64_t elapsed_ns = clock.duration_ns(open_frames.recorded_until(begin, now));
    if (open_frames.process_ends && &node == open_frames.root) {
      add_entry(entries, elapsed_ns);
    } else {
      r.flags |= format::kNodeOpen;
      r.open_ns = elapsed_ns;
    }
    r.last_begin_ns = clock.since_origin_ns(*begin);
  }
  r.os_user_self_ns =
      node.os_user_self_ns.get() + (&node == open_frames.innermost ? open_frames.unsampled_cpu_ns : 0);
  r.os_sys_self_ns = node.os_sys_self_ns.get();
  static_cast<format::DurationStats&>(r) = entries;
  running.check(entries.sum_ns + r.open_ns);
  r.iterations = duration_record(node.iterations, clock);
  if (node.context.get() && r.count == 0 && !(r.flags & format::kNodeOpen)) r.flags |= format::kNodeContext;
  // Count first, then write exactly that many: the list may grow while we walk it.
  EventStats* first = node.first_event.load(std::memory_order_acquire);
  for (EventStats* s = first; s; s = s->next.load(std::memory_order_acquire)) ++r.event_count;
  OperationStats* first_operation = node.first_operation.load(std::memory_order_acquire);
  for (OperationStats* o = first_operation; o; o = o->next.load(std::memory_order_acquire))
    ++r.operation_count;
  w.record(r);
  EventStats* s = first;
  for (std::uint32_t i = 0; i < r.event_count; ++i, s = s->next.load(std::memory_order_acquire)) {
    format::EventStatsRecord e;
    e.event = s->event;
    e.starts = s->starts.get();
    e.atomics = s->atomics.get();
    static_cast<format::DurationStats&>(e) = duration_record(s->durations, clock);
    e.first_description = view(s->first_description.load(std::memory_order_acquire));
    w.record(e);
  }
  OperationStats* o = first_operation;
  for (std::uint32_t i = 0; i < r.operation_count; ++i, o = o->next.load(std::memory_order_acquire)) {
    format::OperationStatsRecord op;
    op.site = o->site->id_;
    static_cast<format::DurationStats&>(op) = duration_record(o->durations, clock);
    op.wait_ns = clock.duration_ns(o->wait_ticks.get());
    op.wait_max_ns = clock.duration_ns(o->wait_max_ticks.get());
    op.sync_ns = clock.duration_ns(o->sync_ticks.get());
    op.sync_max_ns = clock.duration_ns(o->sync_max_ticks.get());
    op.bytes = o->bytes.get();
    op.partner_min = o->partner_min.get();
    op.partner_max = o->partner_max.get();
    op.partner_set = o->partner_set.get();
    op.overlap_ns = clock.duration_ns(o->overlap_ticks.get());
    op.last_begin_ns = clock.since_origin_ns(o->last_begin_ticks.get());
    op.last_end_ns = clock.since_origin_ns(o->last_end_ticks.get());
    running.check(op.sum_ns);
    w.record(op);
  }
}

// Pre-order walk without recursion (a signal may arrive on a nearly exhausted stack): `visit` gets
// each node with its depth.
template <class Visit>
void walk_tree(Node* root, Visit&& visit) {
  std::uint32_t depth = 0;
  Node* node = root;
  while (node) {
    visit(*node, depth);
    if (Node* child = node->first_child.load(std::memory_order_acquire); child && depth + 1 < kMaxFrames) {
      node = child;
      ++depth;
      continue;
    }
    while (node && depth > 0) {
      if (Node* sibling = node->next_sibling.load(std::memory_order_acquire)) {
        node = sibling;
        break;
      }
      node = node->parent;
      --depth;
    }
    if (depth == 0) break;
  }
}

// The parent of a node at depth d is the last node written at depth d - 1.
void write_tree(Writer& w, Node* root, const TickConverter& clock, std::uint64_t now,
                const OpenFrames& open_frames, RunningThread& running) {
  std::uint32_t index_at_depth[kMaxFrames];
  std::uint32_t next_index = 0;
  walk_tree(root, [&](Node& node, std::uint32_t depth) {
    index_at_depth[depth] = next_index++;
    write_node(w, node, index_at_depth[depth], depth == 0 ? format::kNoParent : index_at_depth[depth - 1],
               clock, now, open_frames, running);
  });
}

// The sum of squares in ns², from ticks², as the file's 128-bit integer: the double's value split
// into its high and low 64 bits (no 128-bit conversion routine: the runtime links no support library).
void set_sum_squares(format::IterationDistributionRecord& r, double ticks_squared, double ns_per_tick) {
  constexpr double kTwo64 = 18446744073709551616.0;
  const double ns_squared = ticks_squared * ns_per_tick * ns_per_tick;
  if (!(ns_squared > 0)) return;
  if (ns_squared >= kTwo64 * kTwo64) {
    r.sum_squares_high = r.sum_squares_low = ~std::uint64_t{0};
    return;
  }
  r.sum_squares_high = static_cast<std::uint64_t>(ns_squared / kTwo64);
  const double low = ns_squared - static_cast<double>(r.sum_squares_high) * kTwo64;
  r.sum_squares_low = low > 0 ? static_cast<std::uint64_t>(low) : 0;
}

// The iterations section: the distribution of every loop node of every thread written above (by
// the index its thread section gave it). Written only when some node has one.
void write_iteration_distributions(Writer& w, ThreadState* head, const TickConverter& clock) {
  bool begun = false;
  for (const ThreadState* t = head; t; t = t->next) {
    walk_tree(t->root, [&](Node& node, std::uint32_t) {
      const IterationHistogram* h = node.iteration_histogram.load(std::memory_order_acquire);
      if (!h || node.written_index == 0xffffffffu) return;  // a node created after its thread was written
      if (!begun) w.begin_section(format::SectionType::iterations);
      begun = true;
      format::IterationDistributionRecord r;
      r.thread = t->index;
      r.node = node.written_index;
      set_sum_squares(r, h->sum_squares_ticks.get(), clock.ns_per_tick);
      std::uint64_t counts[format::kIterationBuckets];
      for (std::uint32_t b = 0; b < format::kIterationBuckets; ++b) {
        counts[b] = h->buckets[b].get();  // read once: the count written must be the count announced
        r.bucket_count += counts[b] > 0 ? 1 : 0;
      }
      w.record(r);
      for (std::uint32_t b = 0; b < format::kIterationBuckets; ++b)
        if (counts[b] > 0)
          w.record(format::IterationBucketRecord{.bucket = b, .reserved = 0, .count = counts[b]});
    });
  }
  if (begun) w.end_section();
}

// Returns whether the thread, read while running, outgrew the lifetime its record gives.
bool write_thread(Writer& w, const ThreadState& t, const TickConverter& clock, std::uint64_t now,
                  OpenFrames& open_frames) {
  open_frames.collect(t);
  format::ThreadRecord r;
  r.index = t.index;
  r.ended = t.ended.get() ? 1 : 0;
  r.os_tid = t.os_tid;
  r.start_ns = clock.since_origin_ns(t.start_ticks);
  r.end_ns = clock.since_origin_ns(r.ended ? t.end_ticks.get() : now);
  r.kind = t.kind.get();
  // Another thread that is still running is read while it runs: its nodes at different moments.
  r.read_running = !r.ended && &t != thread_detail::current ? 1 : 0;
  std::uint64_t parked = t.parked_ticks.get();
  if (const std::uint64_t since = t.parked_since.get(); since != 0 && !r.ended)
    parked += recorded_ticks(since, t.parked_paused_at.get(), now);
  r.parked_ns = clock.duration_ns(parked);
  w.begin_section(format::SectionType::thread);
  w.record(r);
  RunningThread running{.lifetime_ns = r.read_running ? r.end_ns - r.start_ns : 0};
  write_tree(w, t.root, clock, now, open_frames, running);
  w.end_section();
  return running.outgrown;
}

// Returns whether a thread read while running outgrew its record's lifetime (write_thread).
bool write_contents(Writer& w, format::EndReason reason, int signal, OpenFrames& open_frames) {
  TickConverter clock = calibrate();
  clock.skew_offset_ns = config().clock_skew_offset_ns;
  clock.skew_drift = config().clock_skew_drift;
  const std::uint64_t now = now_ticks();
  ThreadState* const head = first_thread();  // the list only grows at its head: walk a snapshot

  format::ProcessRecord process;
  process.rank = config().rank;
  process.world_size = config().world_size;
  process.pid = getpid();
  process.start_unix_ns = origin_unix_ns();
  process.duration_ns = clock.since_origin_ns(now);
  process.end_reason = reason;
  process.end_signal = static_cast<std::uint32_t>(signal);
  process.clock_source = clock_uses_tsc() ? format::ClockSource::tsc : format::ClockSource::monotonic;
  for (const ThreadState* t = head; t; t = t->next) {
    ++process.thread_count;
    process.dropped_intervals += t->dropped.get();
  }
  process.ticks_per_second = clock.ticks_per_second;
  process.max_depth = config().max_depth;
  process.hostname = view(g_hostname);
  process.command_line = view(g_command_line);
  process.parperf_version = view(PARPERF_VERSION);
  describe_process(process);  // what the collectors know of it

  w.file_header();
  w.begin_section(format::SectionType::process);
  w.record(process);
  w.end_section();
  open_frames.process_ends = reason != format::EndReason::flush;
  bool outgrown = false;
  for (const ThreadState* t = head; t; t = t->next) outgrown |= write_thread(w, *t, clock, now, open_frames);
  write_collector_sections(w, clock);  // may refer to the node indices the thread sections just gave
  write_iteration_distributions(w, head, clock);                   // so does this
  write_call_paths(w, head, reason == format::EndReason::signal);  // and this

  // Sites and events last: every node written above refers to a site registered before it.
  w.begin_section(format::SectionType::sites);
  const std::uint32_t sites = registered_site_count();
  for (std::uint32_t id = 0; id < sites; ++id) {
    const parperf_site* s = registered_site(id);
    format::SiteRecord r;
    r.id = id;
    r.kind = static_cast<std::uint32_t>(s->kind);
    r.line = s->line;
    r.name = view(s->name);
    r.file = view(s->file);
    if (const CodeSite* code = as_code_site(s)) {
      r.address = code->address;
      r.end_address = code->end_address.load(std::memory_order_relaxed);
      r.module = view(code->module);
      if (code->parent && (code->parent->site.state_ & kSiteStateMask) != kSiteUnregistered)
        r.parent = code->parent->site.id_;
    }
    w.record(r);
  }
  w.end_section();
  w.begin_section(format::SectionType::events);
  const std::uint32_t events = event_kind_count();
  for (std::uint32_t id = 1; id <= events; ++id) {
    const EventKind* kind = event_kind(id);
    format::EventRecord r;
    r.id = id;
    r.name = view(kind->name);
    r.description = view(kind->description);
    w.record(r);
  }
  w.end_section();
  w.begin_section(format::SectionType::probe_costs);
  for (const ThreadState* t = head; t; t = t->next) {
    if (t->probe_costs.entry == 0 && t->probe_costs.mark == 0) continue;  // not calibrated
    format::ProbeCostsRecord costs;
    costs.thread = t->index;
    costs.entry_ns = clock.duration_ns(t->probe_costs.entry);
    costs.inside_ns = clock.duration_ns(t->probe_costs.inside);
    costs.mark_ns = clock.duration_ns(t->probe_costs.mark);
    w.record(costs);
  }
  w.end_section();
  if (const std::uint32_t missing = threads_not_measured()) {
    w.begin_section(format::SectionType::limits);
    format::LimitsRecord limits;
    limits.threads_not_measured = missing;
    w.record(limits);
    w.end_section();
  }
  if (const std::uint32_t left_out = model_threads_left_out()) {
    w.begin_section(format::SectionType::model_threads);
    format::ModelThreadsRecord model;
    model.threads_left_out = left_out;
    w.record(model);
    w.end_section();
  }
  w.finish();
  return outgrown;
}

// A flush and the final write (exit, fatal signal) may overlap: a thread flushes while another
// exits, or a signal arrives in the middle of a flush. The final profile must always win, so the
// final write renames its file only after a flush in progress has renamed (or dropped) its own,
// and a flush that finishes after the final write has begun drops its file instead of renaming.
// A flush claims g_flush_in_progress before it reads g_final_started, the final write sets
// g_final_started before it reads g_flush_in_progress (all sequentially consistent): so either the
// final write sees the flush and waits for it, or the flush sees the final write and makes no file
// at all — never a temporary file that the process's exit cuts off half-written.
std::atomic<bool> g_final_started{false};
std::atomic<bool> g_flush_in_progress{false};
std::atomic<pid_t> g_flusher{0};  // the thread of the flush in progress

// The profile's names in the run directory: the final one, this write's temporary one, a flush's.
struct ProfileNames {
  char final[80] = "";
  char temp[96] = "";
  char flush_temp[96] = "";

  bool make(const char* name, const char* temp_suffix) {
    return append(final, sizeof final, name) && append(temp, sizeof temp, final) &&
           append(temp, sizeof temp, temp_suffix) && append(flush_temp, sizeof flush_temp, final) &&
           append(flush_temp, sizeof flush_temp, ".partial");
  }
};

// The run directory, opened once (write_directory.hpp): at start-up, so a directory swapped for a link
// later cannot redirect the profile.
WriteDirectory g_run_directory;

// Writes the whole profile into a new file `name` in `directory_fd`; 0 or the errno that stopped
// it. The name is predictable, so the file is made afresh, never through a link someone planted there.
// Writes the profile into `name`; 0, or the errno that stopped it. A thread read while running that
// outgrew its record's lifetime (write_thread) is read again, in a profile written anew from a later
// moment: an interval ending between the reading of a thread's record and of its nodes is a matter of
// microseconds, so a second reading nearly always finds the thread consistent. At most three
// writings; the last stands (the report then says which thread's time it refused).
int write_file(int directory_fd, const char* name, format::EndReason reason, int signal, WriteSlot& slot) {
  constexpr int kWritings = 3;
  int error = 0;
  for (int writing = 0; writing < kWritings; ++writing) {
    unlinkat(directory_fd, name, 0);  // what a killed run left behind, or the writing before
    const int fd = open_private_at(directory_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0666);
    if (fd < 0) return errno;
    FileSink sink(fd, slot.buffer, sizeof slot.buffer);
    Writer writer(sink);
    const bool outgrown = write_contents(writer, reason, signal, slot.open_frames);
    sink.flush();
    error = sink.error();
    close(fd);
    if (error != 0) {
      unlinkat(directory_fd, name, 0);
      return error;
    }
    if (!outgrown) break;
  }
  return error;
}

// The final write waits for a flush on another thread to finish (it drops its file once it sees
// the final write begun, or renames it first). A flush on this very thread was interrupted by the
// signal that brought us here and never resumes: its temporary file is removed instead.
void wait_for_flush_to_end(pid_t self, int directory_fd, const ProfileNames& names) {
  if (g_flush_in_progress.load(std::memory_order_seq_cst) &&
      g_flusher.load(std::memory_order_relaxed) == self) {
    unlinkat(directory_fd, names.flush_temp, 0);
    return;
  }
  wait_while([] { return g_flush_in_progress.load(std::memory_order_seq_cst); }, 10000);
}

}  // namespace

void open_run_directory() noexcept { g_run_directory.open(config().output_dir); }

void capture_process_facts() noexcept {
  if (gethostname(g_hostname, sizeof g_hostname) != 0) std::strcpy(g_hostname, "unknown");
  g_hostname[sizeof g_hostname - 1] = '\0';
  const int fd = open_private("/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return;
  const ssize_t n = read(fd, g_command_line, sizeof g_command_line - 1);
  close(fd);
  if (n <= 0) return;
  for (ssize_t i = 0; i < n; ++i)
    if (g_command_line[i] == '\0') g_command_line[i] = ' ';
  g_command_line[n > 0 && g_command_line[n - 1] == ' ' ? n - 1 : n] = '\0';
}

bool write_profile(format::EndReason reason, int signal) noexcept {
  const bool final_write = reason != format::EndReason::flush;
  if (final_write) {
    g_final_started.store(true, std::memory_order_seq_cst);
    stop_tracing_samples();  // the trace's samples are then those the profile counts
  } else {
    // Claim first, then look: a final write that has not seen this claim has already begun, and the
    // flush sees that and makes no file (it could be cut off half-written by the exit).
    if (g_flush_in_progress.exchange(true, std::memory_order_seq_cst)) return false;  // another flush
    if (g_final_started.load(std::memory_order_seq_cst)) {
      g_flush_in_progress.store(false, std::memory_order_release);
      return false;  // the final profile is being written
    }
  }
  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  if (!final_write) g_flusher.store(self, std::memory_order_relaxed);

  const char* dir = config().output_dir;
  char name[64];
  format::profile_file_name(name, sizeof name, config().rank);
  ProfileNames names;
  bool written = false;
  const int directory_fd = g_run_directory.open(dir);
  if (!names.make(name, final_write ? ".final.partial" : ".partial")) {
    warn_unwritable(dir, ENAMETOOLONG);
  } else if (directory_fd < 0) {
    warn_unwritable(dir, -directory_fd);
  } else {
    WriteSlot& slot = final_write ? g_final_slot : g_flush_slot;
    if (const int write_error = write_file(directory_fd, names.temp, reason, signal, slot);
        write_error != 0) {
      warn_unwritable(dir, write_error);
    } else if (!final_write && g_final_started.load(std::memory_order_seq_cst)) {
      unlinkat(directory_fd, names.temp, 0);  // stale already: the final write has begun and will replace it
    } else {
      if (final_write) wait_for_flush_to_end(self, directory_fd, names);
      // Rename last: a reader sees the previous complete profile or this one, never half of one.
      if (renameat(directory_fd, names.temp, directory_fd, names.final) != 0)
        warn_unwritable(dir, errno);
      else
        written = true;
    }
  }
  if (!final_write) g_flush_in_progress.store(false, std::memory_order_release);
  return written;
}

}  // namespace parperf::runtime
