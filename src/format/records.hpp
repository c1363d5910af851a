// The profile file format, version 3: every record and field, defined once.
//
// Both the runtime's writer and the analysis's reader go through the `fields` functions below,
// so a field can only be added, removed or reordered in one place. Each field has an explicit
// width; integers are stored in the byte order named in the file header and converted by the
// reader. Strings are stored inline as a u32 length followed by that many bytes (no NUL).
// The layout of the whole file is documented in docs/format.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "format/iteration_buckets.hpp"
#include "format/site_kinds.hpp"

namespace parperf::format {

// "\x89PPF\r\n\x1a\n": a non-ASCII first byte and a CR LF pair reveal text-mode transfers and
// files that are not ours.
inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'P', 'P', 'F', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint16_t kVersionMajor = 3;
// 3.1 added the limits section, 3.2 the shmem section, 3.3 the iterations and probe costs sections,
// 3.4 the call paths section, 3.5 the setup samples section, 3.6 ThreadRecord.read_running, 3.7 the
// call paths' samples held within their thread's count, 3.8 the model threads section
inline constexpr std::uint16_t kVersionMinor = 8;
inline constexpr std::uint8_t kLittleEndian = 1;
inline constexpr std::uint8_t kBigEndian = 2;
// Width in bytes of the integers and of the time fields in versions 1 and 2.
inline constexpr std::uint8_t kIntegerSize = 8;
inline constexpr std::uint8_t kTimeSize = 8;
inline constexpr std::uint32_t kNoParent = 0xffffffffu;
inline constexpr std::int64_t kNoPartner = -1;
// Deepest interval nesting a profile may hold (the runtime records at most 254 levels). Readers
// refuse deeper trees: a crafted chain of nodes would otherwise exhaust a recursive reader's stack.
inline constexpr std::uint32_t kMaxNestingDepth = 1024;
// Marks the end of the last section; followed by the number of sections (u32).
inline constexpr std::uint32_t kEndMarker = 0x21444e45u;  // "END!"

enum class SectionType : std::uint32_t {
  process = 1,      // one ProcessRecord
  sites = 2,        // SiteRecord*
  events = 3,       // EventRecord*
  thread = 4,       // one ThreadRecord, then NodeRecord* (pre-order, each followed by its EventStatsRecords
                    // and OperationStatsRecords)
  mpi = 5,          // one MpiRecord, then its ClockSyncRecords, then its CommunicatorRecords (each followed
                    // by its CollectiveInstanceRecords)
  limits = 6,       // one LimitsRecord (since 3.1): what the runtime's limits kept out of the profile
  shmem = 7,        // one ShmemRecord, then its ShmemTrafficRecords (since 3.2)
  iterations = 8,   // IterationDistributionRecord*, each followed by its IterationBucketRecords (since 3.3)
  probe_costs = 9,  // ProbeCostsRecords, one per calibrated thread (since 3.3)
  call_paths = 10,  // one CallPathsRecord, its CallPathModuleRecords, then per sampled thread a
                    // CallPathThreadRecord followed by its CallPathNodeRecords (since 3.4)
  setup_samples = 11,  // SetupSamplesRecord*, one per sampled thread (since 3.5)
  model_threads = 12,  // one ModelThreadsRecord (since 3.8): the programming model's own threads
};

// CallPathsRecord::clock: what the sampling timers counted.
enum class SampleClock : std::uint32_t { cpu = 0, wall = 1 };
// What sent the sampling signals: POSIX timers (fire at the scheduler tick for CPU time), the kernel's
// perf-event CPU clock (a high-resolution timer), or each on some threads.
enum class SampleSource : std::uint32_t { timer = 0, perf_event = 1, both = 2 };

// ShmemTrafficRecord::operation: what the process did to its target's memory.
enum class OneSidedOperation : std::uint32_t { put = 0, get = 1, atomic = 2 };

// How the profile came to be written.
enum class EndReason : std::uint32_t {
  exit = 0,       // normal process exit (atexit / library destructor)
  flush = 1,      // parperf_flush() while the program was still running
  signal = 2,     // a fatal signal; `end_signal` names it
  mpi_abort = 3,  // the process called MPI_Abort; `end_signal` holds the error code's low bits
  global_exit =
      4,  // the process called shmem_global_exit (since 3.2); `end_signal` holds the status's low bits
};

enum class ClockSource : std::uint32_t { tsc = 0, monotonic = 1 };

// ClockSyncRecord::phase
enum class ClockPhase : std::uint32_t { init = 0, finalize = 1 };

// NodeRecord::flags
inline constexpr std::uint32_t kNodeOpen = 1;     // an entry was open when written
inline constexpr std::uint32_t kNodeContext = 2;  // entered only as the path of a team's parallel region

// ThreadRecord::kind
enum class ThreadKind : std::uint32_t { other = 0, initial = 1, openmp_worker = 2 };

// A string as stored: a view when writing; when reading, a view into the file's bytes. Records with
// strings are templates on their text type: `XRecord` (Str) is what the runtime writes, and the
// decoded model (profile.hpp) holds the same fields with owned strings.
using Str = std::string_view;
template <class T>
inline constexpr bool is_text_v = std::is_same_v<T, Str> || std::is_same_v<T, std::string>;

struct FileHeader {
  std::array<std::uint8_t, 8> magic = kMagic;
  std::uint16_t version_major = kVersionMajor;
  std::uint16_t version_minor = kVersionMinor;
  std::uint8_t byte_order = kLittleEndian;
  std::uint8_t integer_size = kIntegerSize;
  std::uint8_t time_size = kTimeSize;
  std::uint8_t reserved = 0;
};

// The header of another kind of file in the same container (a memory trace, an event trace): the
// profile's FileHeader with that kind's magic and version.
inline FileHeader file_header_of(const std::array<std::uint8_t, 8>& magic, std::uint16_t version_major,
                                 std::uint16_t version_minor) {
  FileHeader header;
  header.magic = magic;
  header.version_major = version_major;
  header.version_minor = version_minor;
  return header;
}

// Every section: a SectionHeader, `length` payload bytes, then the CRC-32C (u32) of the section
// type's bytes followed by the payload.
struct SectionHeader {
  std::uint32_t type = 0;
  std::uint64_t length = 0;
};

template <class Text>
struct ProcessFields {
  static constexpr std::string_view kName = "ProcessRecord";
  std::int64_t rank = 0;        // MPI rank / PE, 0 for a single process
  std::int64_t world_size = 1;  // number of processes of the run
  std::int64_t pid = 0;
  std::uint64_t start_unix_ns = 0;  // CLOCK_REALTIME when the runtime started
  std::uint64_t duration_ns = 0;    // from start to the moment this profile was written
  EndReason end_reason = EndReason::exit;
  std::uint32_t end_signal = 0;
  ClockSource clock_source = ClockSource::tsc;
  std::uint32_t thread_count = 0;
  std::uint64_t ticks_per_second = 0;   // of the clock the durations were measured with
  std::uint64_t max_depth = 0;          // configured maximum nesting depth
  std::uint64_t dropped_intervals = 0;  // entries not recorded (depth limit, table full)
  Text hostname{};
  Text command_line{};  // arguments separated by single spaces
  Text parperf_version{};
  Text openmp_runtime{};  // the OpenMP runtime's version string when the OMPT collector ran, else empty
};
using ProcessRecord = ProcessFields<Str>;

// What the runtime's limits kept out of the profile, so that the report can say what is missing.
struct LimitsRecord {
  static constexpr std::string_view kName = "LimitsRecord";
  std::uint64_t threads_not_measured = 0;  // threads started after PARPERF_MAX_THREADS were measured
};

// A site named by the program (name, file, line) or found by a collector at a code address. A code
// address is module-relative (the address in the ELF file's own address space) and is symbolized
// by the analysis; `end_address` is the address that closed the construct, when known (0 if not).
template <class Text>
struct SiteFields {
  static constexpr std::string_view kName = "SiteRecord";
  std::uint32_t id = 0;
  std::uint32_t kind = 0;  // SiteKind
  std::int64_t line = 0;
  std::uint64_t address = 0;
  std::uint64_t end_address = 0;
  std::uint32_t parent = kNoParent;  // for an implicit or join barrier: the id of its construct's site
  std::uint32_t reserved = 0;
  Text name{};
  Text file{};
  Text module{};  // path of the module holding `address`, empty when the site has no address
};
using SiteRecord = SiteFields<Str>;

template <class Text>
struct EventFields {
  static constexpr std::string_view kName = "EventRecord";
  std::uint32_t id = 0;
  Text name{};
  Text description{};  // the printf-style format given at creation
};
using EventRecord = EventFields<Str>;

struct ThreadRecord {
  static constexpr std::string_view kName = "ThreadRecord";
  std::uint32_t index = 0;  // registration order within the process, 0 = first
  std::uint32_t ended = 0;  // 1 if the thread had exited when the profile was written
  std::int64_t os_tid = 0;
  std::uint64_t start_ns = 0;  // registration time, relative to the process start
  std::uint64_t end_ns = 0;    // exit time, or write time if still running
  ThreadKind kind = ThreadKind::other;
  // 1 if the thread ran while its nodes were read (since 3.6): it had not ended and was not the thread
  // writing the profile, so its nodes were read at different moments (analysis/snapshot_skew.hpp)
  std::uint32_t read_running = 0;
  std::uint64_t parked_ns = 0;  // time parked in a runtime's thread pool, outside any team
};

// The statistics of a duration kept for a node's entries, an operation's calls and a user event's
// start/end pairs: how many completed, their sum, the shortest and the longest (nanoseconds; min_ns
// is 0 while count is 0). Mean = sum / count. The base of those records, so that every reader and
// writer treats them alike.
struct DurationStats {
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
};

// `more` added to `into` (the same statistic of two threads, or of two nodes of one interval):
// the minimum and maximum of a block without entries mean nothing and are not compared.
constexpr void add_durations(DurationStats& into, const DurationStats& more) {
  if (more.count > 0) {
    into.min_ns = into.count == 0 || more.min_ns < into.min_ns ? more.min_ns : into.min_ns;
    into.max_ns = into.count == 0 || more.max_ns > into.max_ns ? more.max_ns : into.max_ns;
  }
  into.count += more.count;
  into.sum_ns += more.sum_ns;
}

// One interval-tree node of one thread. All times are nanoseconds; time stamps are relative to
// the process start. `os_*_self_ns` exclude the node's children.
struct NodeRecord : DurationStats {  // count: completed entries
  static constexpr std::string_view kName = "NodeRecord";
  std::uint32_t parent = kNoParent;  // index of the parent node in this thread, kNoParent for the root
  std::uint32_t site = 0;            // SiteRecord id; the root uses the program site
  std::int64_t value = 0;
  std::uint64_t last_begin_ns = 0;
  std::uint64_t open_ns = 0;  // elapsed time of an entry still open when written (0 if none)
  std::uint64_t os_user_self_ns = 0;
  std::uint64_t os_sys_self_ns = 0;
  DurationStats iterations;           // loop iteration marks (work-sharing loops: chunks)
  std::uint32_t flags = 0;            // kNodeOpen, kNodeContext
  std::uint32_t event_count = 0;      // EventStatsRecords that follow this node
  std::uint32_t operation_count = 0;  // then OperationStatsRecords
  std::uint32_t reserved = 0;
};

// A user event's statistics within one node.
template <class Text>
struct EventStatsFields : DurationStats {  // count: completed start/end pairs ("ends")
  static constexpr std::string_view kName = "EventStatsRecord";
  std::uint32_t event = 0;
  std::uint32_t reserved = 0;
  std::uint64_t starts = 0;
  std::uint64_t atomics = 0;
  Text first_description{};  // the description formatted with the first occurrence's arguments
};
using EventStatsRecord = EventStatsFields<Str>;

// The statistics of one operation site (an OpenMP construct's synchronization, later an MPI call)
// within one node: DESIGN.md section 3. `wait` is the time spent waiting before the operation
// proper could start (for a lock, the critical section, the ordered turn, a barrier's last
// arrival); `sync` the time spent waiting at the end of a work-sharing construct.
struct OperationStatsRecord : DurationStats {  // count: calls
  static constexpr std::string_view kName = "OperationStatsRecord";
  std::uint32_t site = 0;
  std::uint32_t reserved = 0;
  std::uint64_t wait_ns = 0;
  std::uint64_t wait_max_ns = 0;
  std::uint64_t sync_ns = 0;
  std::uint64_t sync_max_ns = 0;
  std::uint64_t bytes = 0;
  // MPI: the partners (ranks in MPI_COMM_WORLD) of point-to-point and one-sided calls, and the time
  // non-blocking communication ran while the caller computed (kNoPartner / 0 when none).
  std::int64_t partner_min = kNoPartner;
  std::int64_t partner_max = kNoPartner;
  std::uint64_t partner_set = 0;  // bit (rank mod 64) set for every partner seen
  std::uint64_t overlap_ns = 0;
  // The last call: its begin and end as time stamps (ns since the process's start).
  std::uint64_t last_begin_ns = 0;
  std::uint64_t last_end_ns = 0;
};

// What the MPI collector learnt about the process (section `mpi`). Durations in nanoseconds.
template <class Text>
struct MpiFields {
  static constexpr std::string_view kName = "MpiRecord";
  std::int64_t world_rank = 0;
  std::int64_t world_size = 1;
  std::int32_t thread_level = 0;  // MPI_THREAD_SINGLE 0 .. MPI_THREAD_MULTIPLE 3, as provided
  std::uint32_t clock_count = 0;  // ClockSyncRecords that follow
  std::uint32_t communicator_count = 0;
  std::uint32_t reserved = 0;
  std::uint64_t latency_ns = 0;             // half the smallest round trip to rank 0 (or 1) at MPI_Init
  std::uint64_t bandwidth_bytes_per_s = 0;  // measured at MPI_Init; 0 when not measured
  Text library{};                           // MPI_Get_library_version, first line
};
using MpiRecord = MpiFields<Str>;

// One clock offset measurement (DESIGN.md section 5), the exchange with the smallest round trip.
// On rank r != 0: `send_ns`/`recv_ns` are r's own times of the exchange. On rank 0: one record per
// other rank with `master_ns`, rank 0's time at which it answered that rank. The analysis joins them:
// offset(r) = master_ns - (send_ns + recv_ns) / 2.
struct ClockSyncRecord {
  static constexpr std::string_view kName = "ClockSyncRecord";
  ClockPhase phase = ClockPhase::init;
  std::uint32_t reserved = 0;
  std::int64_t rank = 0;  // the rank measured against rank 0
  std::uint64_t send_ns = 0;
  std::uint64_t recv_ns = 0;
  std::uint64_t master_ns = 0;
  std::uint64_t round_trip_ns = 0;
};

// A communicator the process used for collectives. The same communicator on different ranks has the
// same (members_hash, ordinal): the hash of its members' MPI_COMM_WORLD ranks in order, and how many
// communicators with the same members this process created before it.
struct CommunicatorRecord {
  static constexpr std::string_view kName = "CommunicatorRecord";
  std::uint32_t id = 0;  // local to the file
  std::uint32_t size = 0;
  std::int64_t rank = 0;  // this process's rank in the communicator
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t instance_count = 0;  // CollectiveInstanceRecords that follow (the sample)
  std::uint64_t collectives = 0;     // collective calls on the communicator in all
  std::uint64_t stride = 1;          // the sample keeps the instances whose sequence % stride == 0
};

// One collective call of the sample: arrival (call) and departure (return) times since the process's
// origin; a non-blocking collective has no departure (leave_ns 0). `node` is the index of the
// interval node in thread `thread`'s section (kNoParent when unknown), `site` the call's site.
struct CollectiveInstanceRecord {
  static constexpr std::string_view kName = "CollectiveInstanceRecord";
  std::uint64_t sequence = 0;  // the communicator's collective count before this call
  std::uint64_t arrive_ns = 0;
  std::uint64_t leave_ns = 0;
  std::uint32_t thread = 0;
  std::uint32_t node = kNoParent;
  std::uint32_t site = 0;
  std::uint32_t reserved = 0;
};

// What the OpenSHMEM collector learnt about the process (section `shmem`).
struct ShmemRecord {
  static constexpr std::string_view kName = "ShmemRecord";
  std::int64_t pe = 0;
  std::int64_t pe_count = 1;
  std::uint32_t traffic_count = 0;  // ShmemTrafficRecords that follow
  // 1 when the collector could not keep the traffic matrix (no memory for it at shmem_init): the
  // process's row is then unknown, not empty.
  std::uint32_t traffic_lost = 0;
};

// The process's one-sided traffic into one target PE's memory, by operation: one row of the traffic
// matrix (which PE reads and writes whose memory). Only rows with calls are written.
struct ShmemTrafficRecord {
  static constexpr std::string_view kName = "ShmemTrafficRecord";
  std::int64_t target = 0;  // the PE whose memory was written or read
  OneSidedOperation operation = OneSidedOperation::put;
  std::uint32_t reserved = 0;
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
};

// The distribution of one loop node's iteration (or chunk) times, beyond the count, sum, minimum
// and maximum of its NodeRecord (section `iterations`, since 3.3; only nodes with iterations have
// one). `thread` and `node` name the node as CollectiveInstanceRecord does. The sum of squares is of
// nanoseconds, a 128-bit number in two halves; the buckets are those of iteration_buckets.hpp.
struct IterationDistributionRecord {
  static constexpr std::string_view kName = "IterationDistributionRecord";
  std::uint32_t thread = 0;  // ThreadRecord::index
  std::uint32_t node = 0;    // index of the node in that thread's section
  std::uint64_t sum_squares_high = 0;
  std::uint64_t sum_squares_low = 0;
  std::uint32_t bucket_count = 0;  // IterationBucketRecords that follow: the non-empty buckets, in order
  std::uint32_t reserved = 0;
};

// One non-empty bucket of an iteration distribution.
struct IterationBucketRecord {
  static constexpr std::string_view kName = "IterationBucketRecord";
  std::uint32_t bucket = 0;  // below kIterationBuckets
  std::uint32_t reserved = 0;
  std::uint64_t count = 0;  // iterations whose time falls in the bucket
};

// What the runtime's probes cost on one thread, measured when it registered (section `probe_costs`,
// since 3.3; runtime/probe_calibration.hpp): what the analysis takes out of interval and iteration
// times (analysis/probe_compensation.hpp). A thread without one was not calibrated.
struct ProbeCostsRecord {
  static constexpr std::string_view kName = "ProbeCostsRecord";
  std::uint32_t thread = 0;  // ThreadRecord::index
  std::uint32_t reserved = 0;
  std::uint64_t entry_ns = 0;   // an interval begin and end, as the intervals around it see it
  std::uint64_t inside_ns = 0;  // the part of it inside the entry's own time
  std::uint64_t mark_ns = 0;    // a loop iteration mark
};

// How the threads' call paths were sampled (section `call_paths`, since 3.4).
struct CallPathsRecord {
  static constexpr std::string_view kName = "CallPathsRecord";
  SampleClock clock = SampleClock::cpu;
  std::uint32_t module_count = 0;             // CallPathModuleRecords that follow
  std::uint64_t period_ns = 0;                // the sampling timers' period
  std::uint32_t thread_count = 0;             // CallPathThreadRecords that follow the modules
  SampleSource source = SampleSource::timer;  // once `reserved`: 0 (timer) in older writers' files
};

// A module (the executable, a shared library) whose code the call paths' addresses lie in.
template <class Text>
struct CallPathModuleFields {
  static constexpr std::string_view kName = "CallPathModuleRecord";
  std::uint32_t id = 0;  // what CallPathNodeRecord::module refers to
  std::uint32_t reserved = 0;
  Text path{};
};
using CallPathModuleRecord = CallPathModuleFields<Str>;

// One thread's samples: how many its timer delivered, how many found no room, and its call-path
// tree's node count.
struct CallPathThreadRecord {
  static constexpr std::string_view kName = "CallPathThreadRecord";
  std::uint32_t thread = 0;      // ThreadRecord::index
  std::uint32_t node_count = 0;  // CallPathNodeRecords that follow
  std::uint64_t samples = 0;     // samples taken (recorded or dropped)
  std::uint64_t dropped = 0;     // samples not recorded: the thread's call-path table was full
};

// One node of a thread's call-path tree: a code address (the interrupted instruction for a path's
// last frame, a return address for the frames above it) reached from its parent. A node's parent
// comes before it; roots (kNoParent) are a path's outermost frame. `interval` is the index of the
// interval node (in the thread's `thread` section) the thread was in when the path was sampled.
// A root at address kUnwindingStopped without a module stands for the callers the stack walk could
// not find: the path below it did not reach its thread's first frame.
inline constexpr std::uint64_t kUnwindingStopped = 0;
struct CallPathNodeRecord {
  static constexpr std::string_view kName = "CallPathNodeRecord";
  std::uint32_t parent = kNoParent;  // index among this thread's CallPathNodeRecords
  std::uint32_t interval = 0;
  std::uint32_t module = kNoParent;  // CallPathModuleRecord id; kNoParent when no module held it
  std::uint32_t frame = 0;           // 0: the interrupted instruction; 1: a return address
  std::uint64_t address = 0;         // module-relative (as SiteRecord::address), absolute without module
  std::uint64_t samples = 0;         // samples whose path ended at this node (self samples)
};

// A sampled thread's samples taken while it was inside its programming model's start-up or shut-down
// (a collector said so): counted apart, in no call path and no interval (section `setup_samples`,
// since 3.5; a file without it counted them as the program's).
struct SetupSamplesRecord {
  static constexpr std::string_view kName = "SetupSamplesRecord";
  std::uint32_t thread = 0;  // ThreadRecord::index
  std::uint32_t reserved = 0;
  std::uint64_t start_up = 0;   // samples while the process was starting up
  std::uint64_t shut_down = 0;  // samples while it was shutting down
};

// The threads the programming model's libraries started for themselves (a collector named those
// libraries: Open MPI's progress threads, PMIx's, UCX's): not the program's, never measured nor
// sampled (section `model_threads`, since 3.8; absent when there were none).
struct ModelThreadsRecord {
  static constexpr std::string_view kName = "ModelThreadsRecord";
  std::uint64_t threads_left_out = 0;  // such threads started in the process
};

// The field lists. `f` is called with each field's name and a reference to it, in file order. The
// names are those of docs/format.md's tables (tests/unit/format_docs_test.cpp holds the two together).
template <class F>
void named_fields(FileHeader& r, F&& f) {
  for (auto& b : r.magic) f("magic", b);
  f("version_major", r.version_major), f("version_minor", r.version_minor), f("byte_order", r.byte_order),
      f("integer_size", r.integer_size), f("time_size", r.time_size), f("reserved", r.reserved);
}
template <class F>
void named_fields(SectionHeader& r, F&& f) {
  f("type", r.type), f("length", r.length);
}
template <class Text, class F>
void named_fields(ProcessFields<Text>& r, F&& f) {
  f("rank", r.rank), f("world_size", r.world_size), f("pid", r.pid), f("start_unix_ns", r.start_unix_ns),
      f("duration_ns", r.duration_ns), f("end_reason", r.end_reason), f("end_signal", r.end_signal),
      f("clock_source", r.clock_source), f("thread_count", r.thread_count),
      f("ticks_per_second", r.ticks_per_second), f("max_depth", r.max_depth),
      f("dropped_intervals", r.dropped_intervals), f("hostname", r.hostname),
      f("command_line", r.command_line), f("parperf_version", r.parperf_version),
      f("openmp_runtime", r.openmp_runtime);
}
template <class F>
void named_fields(LimitsRecord& r, F&& f) {
  f("threads_not_measured", r.threads_not_measured);
}
template <class Text, class F>
void named_fields(SiteFields<Text>& r, F&& f) {
  f("id", r.id), f("kind", r.kind), f("line", r.line), f("address", r.address),
      f("end_address", r.end_address), f("parent", r.parent), f("reserved", r.reserved), f("name", r.name),
      f("file", r.file), f("module", r.module);
}
template <class Text, class F>
void named_fields(EventFields<Text>& r, F&& f) {
  f("id", r.id), f("name", r.name), f("description", r.description);
}
template <class F>
void named_fields(ThreadRecord& r, F&& f) {
  f("index", r.index), f("ended", r.ended), f("os_tid", r.os_tid), f("start_ns", r.start_ns),
      f("end_ns", r.end_ns), f("kind", r.kind), f("read_running", r.read_running),
      f("parked_ns", r.parked_ns);
}
template <class F>
void named_fields(NodeRecord& r, F&& f) {
  f("parent", r.parent), f("site", r.site), f("value", r.value), f("count", r.count), f("sum_ns", r.sum_ns),
      f("min_ns", r.min_ns), f("max_ns", r.max_ns), f("last_begin_ns", r.last_begin_ns),
      f("open_ns", r.open_ns), f("os_user_self_ns", r.os_user_self_ns), f("os_sys_self_ns", r.os_sys_self_ns),
      f("iterations", r.iterations.count), f("iteration_sum_ns", r.iterations.sum_ns),
      f("iteration_min_ns", r.iterations.min_ns), f("iteration_max_ns", r.iterations.max_ns),
      f("flags", r.flags), f("event_count", r.event_count), f("operation_count", r.operation_count),
      f("reserved", r.reserved);
}
template <class Text, class F>
void named_fields(EventStatsFields<Text>& r, F&& f) {
  f("event", r.event), f("reserved", r.reserved), f("starts", r.starts), f("ends", r.count),
      f("atomics", r.atomics), f("sum_ns", r.sum_ns), f("min_ns", r.min_ns), f("max_ns", r.max_ns),
      f("first_description", r.first_description);
}

template <class F>
void named_fields(OperationStatsRecord& r, F&& f) {
  f("site", r.site), f("reserved", r.reserved), f("count", r.count), f("sum_ns", r.sum_ns),
      f("min_ns", r.min_ns), f("max_ns", r.max_ns), f("wait_ns", r.wait_ns), f("wait_max_ns", r.wait_max_ns),
      f("sync_ns", r.sync_ns), f("sync_max_ns", r.sync_max_ns), f("bytes", r.bytes),
      f("partner_min", r.partner_min), f("partner_max", r.partner_max), f("partner_set", r.partner_set),
      f("overlap_ns", r.overlap_ns), f("last_begin_ns", r.last_begin_ns), f("last_end_ns", r.last_end_ns);
}
template <class Text, class F>
void named_fields(MpiFields<Text>& r, F&& f) {
  f("world_rank", r.world_rank), f("world_size", r.world_size), f("thread_level", r.thread_level),
      f("clock_count", r.clock_count), f("communicator_count", r.communicator_count),
      f("reserved", r.reserved), f("latency_ns", r.latency_ns),
      f("bandwidth_bytes_per_s", r.bandwidth_bytes_per_s), f("library", r.library);
}
template <class F>
void named_fields(ClockSyncRecord& r, F&& f) {
  f("phase", r.phase), f("reserved", r.reserved), f("rank", r.rank), f("send_ns", r.send_ns),
      f("recv_ns", r.recv_ns), f("master_ns", r.master_ns), f("round_trip_ns", r.round_trip_ns);
}
template <class F>
void named_fields(CommunicatorRecord& r, F&& f) {
  f("id", r.id), f("size", r.size), f("rank", r.rank), f("members_hash", r.members_hash),
      f("ordinal", r.ordinal), f("instance_count", r.instance_count), f("collectives", r.collectives),
      f("stride", r.stride);
}
template <class F>
void named_fields(CollectiveInstanceRecord& r, F&& f) {
  f("sequence", r.sequence), f("arrive_ns", r.arrive_ns), f("leave_ns", r.leave_ns), f("thread", r.thread),
      f("node", r.node), f("site", r.site), f("reserved", r.reserved);
}

template <class F>
void named_fields(ShmemRecord& r, F&& f) {
  f("pe", r.pe), f("pe_count", r.pe_count), f("traffic_count", r.traffic_count),
      f("traffic_lost", r.traffic_lost);
}
template <class F>
void named_fields(ShmemTrafficRecord& r, F&& f) {
  f("target", r.target), f("operation", r.operation), f("reserved", r.reserved), f("calls", r.calls),
      f("bytes", r.bytes);
}
template <class F>
void named_fields(ProbeCostsRecord& r, F&& f) {
  f("thread", r.thread), f("reserved", r.reserved), f("entry_ns", r.entry_ns), f("inside_ns", r.inside_ns),
      f("mark_ns", r.mark_ns);
}

template <class F>
void named_fields(IterationDistributionRecord& r, F&& f) {
  f("thread", r.thread), f("node", r.node), f("sum_squares_high", r.sum_squares_high),
      f("sum_squares_low", r.sum_squares_low), f("bucket_count", r.bucket_count), f("reserved", r.reserved);
}
template <class F>
void named_fields(IterationBucketRecord& r, F&& f) {
  f("bucket", r.bucket), f("reserved", r.reserved), f("count", r.count);
}
template <class F>
void named_fields(CallPathsRecord& r, F&& f) {
  f("clock", r.clock), f("module_count", r.module_count), f("period_ns", r.period_ns),
      f("thread_count", r.thread_count), f("source", r.source);
}
template <class Text, class F>
void named_fields(CallPathModuleFields<Text>& r, F&& f) {
  f("id", r.id), f("reserved", r.reserved), f("path", r.path);
}
template <class F>
void named_fields(CallPathThreadRecord& r, F&& f) {
  f("thread", r.thread), f("node_count", r.node_count), f("samples", r.samples), f("dropped", r.dropped);
}
template <class F>
void named_fields(ModelThreadsRecord& r, F&& f) {
  f("threads_left_out", r.threads_left_out);
}
template <class F>
void named_fields(SetupSamplesRecord& r, F&& f) {
  f("thread", r.thread), f("reserved", r.reserved), f("start_up", r.start_up), f("shut_down", r.shut_down);
}
template <class F>
void named_fields(CallPathNodeRecord& r, F&& f) {
  f("parent", r.parent), f("interval", r.interval), f("module", r.module), f("frame", r.frame),
      f("address", r.address), f("samples", r.samples);
}

// The records of a profile file, each with its own table in docs/format.md.
template <class... Records>
struct RecordList {};
using ProfileRecords =
    RecordList<ProcessRecord, LimitsRecord, SiteRecord, EventRecord, ThreadRecord, NodeRecord,
               EventStatsRecord, OperationStatsRecord, MpiRecord, ClockSyncRecord, CommunicatorRecord,
               CollectiveInstanceRecord, ShmemRecord, ShmemTrafficRecord, IterationDistributionRecord,
               IterationBucketRecord, ProbeCostsRecord, CallPathsRecord, CallPathModuleRecord,
               CallPathThreadRecord, CallPathNodeRecord, SetupSamplesRecord, ModelThreadsRecord>;

// The same lists without the names: what the writer and the readers walk.
template <class Record, class F>
void fields(Record& r, F&& f) {
  named_fields(r, [&f](const char*, auto& field) { f(field); });
}

// Smallest encoded size of a record: what a reader must see remaining before it trusts a count.
template <class Record>
constexpr std::size_t min_encoded_size() {
  std::size_t size = 0;
  Record r{};
  fields(r, [&](auto& field) {
    if constexpr (is_text_v<std::decay_t<decltype(field)>>)
      size += 4;
    else
      size += sizeof(field);
  });
  return size;
}

}  // namespace parperf::format
