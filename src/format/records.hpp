// The profile file format, version 2: every record and field, defined once.
//
// Both the runtime's writer and the analysis's reader go through the `fields` functions below,
// so a field can only be added, removed or reordered in one place. Each field has an explicit
// width; integers are stored in the byte order named in the file header and converted by the
// reader. Strings are stored inline as a u32 length followed by that many bytes (no NUL).
// The layout of the whole file is documented in docs/format.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace parperf::format {

// "\x89PPF\r\n\x1a\n": a non-ASCII first byte and a CR LF pair reveal text-mode transfers and
// files that are not ours.
inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'P', 'P', 'F', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint16_t kVersionMajor = 2;
inline constexpr std::uint16_t kVersionMinor = 0;
inline constexpr std::uint8_t kLittleEndian = 1;
inline constexpr std::uint8_t kBigEndian = 2;
// Width in bytes of the integers and of the time fields in versions 1 and 2.
inline constexpr std::uint8_t kIntegerSize = 8;
inline constexpr std::uint8_t kTimeSize = 8;
inline constexpr std::uint32_t kNoParent = 0xffffffffu;
// Deepest interval nesting a profile may hold (the runtime records at most 254 levels). Readers
// refuse deeper trees: a crafted chain of nodes would otherwise exhaust a recursive reader's stack.
inline constexpr std::uint32_t kMaxNestingDepth = 1024;
// Marks the end of the last section; followed by the number of sections (u32).
inline constexpr std::uint32_t kEndMarker = 0x21444e45u;  // "END!"

enum class SectionType : std::uint32_t {
  process = 1,  // one ProcessRecord
  sites = 2,    // SiteRecord*
  events = 3,   // EventRecord*
  thread = 4,   // one ThreadRecord, then NodeRecord* (pre-order, each followed by its EventStatsRecords
                // and OperationStatsRecords)
};

// How the profile came to be written.
enum class EndReason : std::uint32_t {
  exit = 0,    // normal process exit (atexit / library destructor)
  flush = 1,   // parperf_flush() while the program was still running
  signal = 2,  // a fatal signal; `end_signal` names it
};

enum class ClockSource : std::uint32_t { tsc = 0, monotonic = 1 };

// Kinds of sites (SiteRecord::kind). 0-15 are the annotation API's parperf_kind values; the
// collectors' kinds follow, one range per collector. Interval kinds head a tree node; operation
// kinds name an OperationStatsRecord (an event at a source site: DESIGN.md section 2).
enum class SiteKind : std::uint32_t {
  program = 0,
  user = 1,
  parallel_loop = 2,
  sequential_loop = 3,
  // OpenMP intervals
  omp_parallel = 16,
  omp_loop = 17,
  omp_sections = 18,
  omp_single = 19,
  omp_workshare = 20,
  omp_distribute = 21,
  omp_taskloop = 22,
  omp_masked = 23,
  omp_task = 24,
  omp_scope = 25,
  // OpenMP operations (SRC points)
  omp_barrier = 32,                 // explicit barrier
  omp_implicit_barrier = 33,        // at the end of a work-sharing construct (its site is the construct's)
  omp_join_barrier = 34,            // at the end of a parallel region (its site is the region's)
  omp_implementation_barrier = 35,  // a barrier the runtime added
  omp_taskwait = 36,
  omp_taskgroup = 37,
  omp_reduction = 38,
  omp_critical = 39,
  omp_lock = 40,
  omp_nest_lock = 41,
  omp_ordered = 42,
  omp_atomic = 43,
  omp_flush = 44,
  omp_task_create = 45,
  omp_lock_init = 46,
  omp_lock_destroy = 47,
};
inline constexpr std::uint32_t kFirstOperationKind = 32;
inline constexpr bool is_operation_kind(std::uint32_t kind) { return kind >= kFirstOperationKind; }

// NodeRecord::flags
inline constexpr std::uint32_t kNodeOpen = 1;     // an entry was open when written
inline constexpr std::uint32_t kNodeContext = 2;  // entered only as the path of a team's parallel region

// ThreadRecord::kind
enum class ThreadKind : std::uint32_t { other = 0, initial = 1, openmp_worker = 2 };

// A string as stored: a view when writing; when reading, a view into the file's bytes.
using Str = std::string_view;

struct FileHeader {
  std::array<std::uint8_t, 8> magic = kMagic;
  std::uint16_t version_major = kVersionMajor;
  std::uint16_t version_minor = kVersionMinor;
  std::uint8_t byte_order = kLittleEndian;
  std::uint8_t integer_size = kIntegerSize;
  std::uint8_t time_size = kTimeSize;
  std::uint8_t reserved = 0;
};

// Every section: a SectionHeader, `length` payload bytes, then the CRC-32C (u32) of the section
// type's bytes followed by the payload.
struct SectionHeader {
  std::uint32_t type = 0;
  std::uint64_t length = 0;
};

struct ProcessRecord {
  std::int64_t rank = 0;        // MPI rank / PE, 0 for a single process
  std::int64_t world_size = 1;  // number of processes of the run
  std::int64_t pid = 0;
  std::uint64_t start_unix_ns = 0;  // CLOCK_REALTIME when the runtime started
  std::uint64_t duration_ns = 0;    // from start to the moment this profile was written
  std::uint32_t end_reason = 0;     // EndReason
  std::uint32_t end_signal = 0;
  std::uint32_t clock_source = 0;  // ClockSource
  std::uint32_t thread_count = 0;
  std::uint64_t ticks_per_second = 0;   // of the clock the durations were measured with
  std::uint64_t max_depth = 0;          // configured maximum nesting depth
  std::uint64_t dropped_intervals = 0;  // entries not recorded (depth limit, table full)
  Str hostname{};
  Str command_line{};  // arguments separated by single spaces
  Str parperf_version{};
  Str openmp_runtime{};  // the OpenMP runtime's version string when the OMPT collector ran, else empty
};

// A site named by the program (name, file, line) or found by a collector at a code address. A code
// address is module-relative (the address in the ELF file's own address space) and is symbolized
// by the analysis; `end_address` is the address that closed the construct, when known (0 if not).
struct SiteRecord {
  std::uint32_t id = 0;
  std::uint32_t kind = 0;  // SiteKind
  std::int64_t line = 0;
  std::uint64_t address = 0;
  std::uint64_t end_address = 0;
  std::uint32_t parent = kNoParent;  // for an implicit or join barrier: the id of its construct's site
  std::uint32_t reserved = 0;
  Str name{};
  Str file{};
  Str module{};  // path of the module holding `address`, empty when the site has no address
};

struct EventRecord {
  std::uint32_t id = 0;
  Str name{};
  Str description{};  // the printf-style format given at creation
};

struct ThreadRecord {
  std::uint32_t index = 0;  // registration order within the process, 0 = first
  std::uint32_t ended = 0;  // 1 if the thread had exited when the profile was written
  std::int64_t os_tid = 0;
  std::uint64_t start_ns = 0;  // registration time, relative to the process start
  std::uint64_t end_ns = 0;    // exit time, or write time if still running
  std::uint32_t kind = 0;      // ThreadKind
  std::uint32_t reserved = 0;
  std::uint64_t parked_ns = 0;  // time parked in a runtime's thread pool, outside any team
};

// One interval-tree node of one thread. All times are nanoseconds; time stamps are relative to
// the process start. `os_*_self_ns` exclude the node's children.
struct NodeRecord {
  std::uint32_t parent = kNoParent;  // index of the parent node in this thread, kNoParent for the root
  std::uint32_t site = 0;            // SiteRecord id; the root uses the program site
  std::int64_t value = 0;
  std::uint64_t count = 0;  // completed entries
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t last_begin_ns = 0;
  std::uint64_t open_ns = 0;  // elapsed time of an entry still open when written (0 if none)
  std::uint64_t os_user_self_ns = 0;
  std::uint64_t os_sys_self_ns = 0;
  std::uint64_t iterations = 0;  // loop iteration marks
  std::uint64_t iteration_sum_ns = 0;
  std::uint64_t iteration_min_ns = 0;
  std::uint64_t iteration_max_ns = 0;
  std::uint32_t flags = 0;            // kNodeOpen, kNodeContext
  std::uint32_t event_count = 0;      // EventStatsRecords that follow this node
  std::uint32_t operation_count = 0;  // then OperationStatsRecords
  std::uint32_t reserved = 0;
};

// A user event's statistics within one node.
struct EventStatsRecord {
  std::uint32_t event = 0;
  std::uint32_t reserved = 0;
  std::uint64_t starts = 0;
  std::uint64_t ends = 0;  // completed start/end pairs
  std::uint64_t atomics = 0;
  std::uint64_t sum_ns = 0;  // of completed pairs
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  Str first_description{};  // the description formatted with the first occurrence's arguments
};

// The statistics of one operation site (an OpenMP construct's synchronization, later an MPI call)
// within one node: DESIGN.md section 3. `wait` is the time spent waiting before the operation
// proper could start (for a lock, the critical section, the ordered turn, a barrier's last
// arrival); `sync` the time spent waiting at the end of a work-sharing construct.
struct OperationStatsRecord {
  std::uint32_t site = 0;
  std::uint32_t reserved = 0;
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t wait_ns = 0;
  std::uint64_t wait_max_ns = 0;
  std::uint64_t sync_ns = 0;
  std::uint64_t sync_max_ns = 0;
  std::uint64_t bytes = 0;
};

// The field lists. `f` is called with a reference to each field in file order.
template <class F>
void fields(FileHeader& r, F&& f) {
  for (auto& b : r.magic) f(b);
  f(r.version_major), f(r.version_minor), f(r.byte_order), f(r.integer_size), f(r.time_size), f(r.reserved);
}
template <class F>
void fields(SectionHeader& r, F&& f) {
  f(r.type), f(r.length);
}
template <class F>
void fields(ProcessRecord& r, F&& f) {
  f(r.rank), f(r.world_size), f(r.pid), f(r.start_unix_ns), f(r.duration_ns), f(r.end_reason),
      f(r.end_signal), f(r.clock_source), f(r.thread_count), f(r.ticks_per_second), f(r.max_depth),
      f(r.dropped_intervals), f(r.hostname), f(r.command_line), f(r.parperf_version), f(r.openmp_runtime);
}
template <class F>
void fields(SiteRecord& r, F&& f) {
  f(r.id), f(r.kind), f(r.line), f(r.address), f(r.end_address), f(r.parent), f(r.reserved), f(r.name),
      f(r.file), f(r.module);
}
template <class F>
void fields(EventRecord& r, F&& f) {
  f(r.id), f(r.name), f(r.description);
}
template <class F>
void fields(ThreadRecord& r, F&& f) {
  f(r.index), f(r.ended), f(r.os_tid), f(r.start_ns), f(r.end_ns), f(r.kind), f(r.reserved), f(r.parked_ns);
}
template <class F>
void fields(NodeRecord& r, F&& f) {
  f(r.parent), f(r.site), f(r.value), f(r.count), f(r.sum_ns), f(r.min_ns), f(r.max_ns), f(r.last_begin_ns),
      f(r.open_ns), f(r.os_user_self_ns), f(r.os_sys_self_ns), f(r.iterations), f(r.iteration_sum_ns),
      f(r.iteration_min_ns), f(r.iteration_max_ns), f(r.flags), f(r.event_count), f(r.operation_count),
      f(r.reserved);
}
template <class F>
void fields(EventStatsRecord& r, F&& f) {
  f(r.event), f(r.reserved), f(r.starts), f(r.ends), f(r.atomics), f(r.sum_ns), f(r.min_ns), f(r.max_ns),
      f(r.first_description);
}

template <class F>
void fields(OperationStatsRecord& r, F&& f) {
  f(r.site), f(r.reserved), f(r.count), f(r.sum_ns), f(r.min_ns), f(r.max_ns), f(r.wait_ns), f(r.wait_max_ns),
      f(r.sync_ns), f(r.sync_max_ns), f(r.bytes);
}

// Smallest encoded size of a record: what a reader must see remaining before it trusts a count.
template <class Record>
constexpr std::size_t min_encoded_size() {
  std::size_t size = 0;
  Record r{};
  fields(r, [&](auto& field) {
    if constexpr (std::is_same_v<std::decay_t<decltype(field)>, Str>)
      size += 4;
    else
      size += sizeof(field);
  });
  return size;
}

}  // namespace parperf::format
