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
#include <string_view>
#include <type_traits>

#include "format/site_kinds.hpp"

namespace parperf::format {

// "\x89PPF\r\n\x1a\n": a non-ASCII first byte and a CR LF pair reveal text-mode transfers and
// files that are not ours.
inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'P', 'P', 'F', '\r', '\n', 0x1a, '\n'};
inline constexpr std::uint16_t kVersionMajor = 3;
inline constexpr std::uint16_t kVersionMinor = 1;  // 3.1 added the limits section
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
  process = 1,  // one ProcessRecord
  sites = 2,    // SiteRecord*
  events = 3,   // EventRecord*
  thread = 4,   // one ThreadRecord, then NodeRecord* (pre-order, each followed by its EventStatsRecords
                // and OperationStatsRecords)
  mpi = 5,      // one MpiRecord, then its ClockSyncRecords, then its CommunicatorRecords (each followed
                // by its CollectiveInstanceRecords)
  limits = 6,   // one LimitsRecord (since 3.1): what the runtime's limits kept out of the profile
};

// How the profile came to be written.
enum class EndReason : std::uint32_t {
  exit = 0,       // normal process exit (atexit / library destructor)
  flush = 1,      // parperf_flush() while the program was still running
  signal = 2,     // a fatal signal; `end_signal` names it
  mpi_abort = 3,  // the process called MPI_Abort; `end_signal` holds the error code's low bits
};

enum class ClockSource : std::uint32_t { tsc = 0, monotonic = 1 };

// ClockSyncRecord::phase
enum class ClockPhase : std::uint32_t { init = 0, finalize = 1 };

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

// What the runtime's limits kept out of the profile, so that the report can say what is missing.
struct LimitsRecord {
  std::uint64_t threads_not_measured = 0;  // threads started after PARPERF_MAX_THREADS were measured
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
struct MpiRecord {
  std::int64_t world_rank = 0;
  std::int64_t world_size = 1;
  std::int32_t thread_level = 0;  // MPI_THREAD_SINGLE 0 .. MPI_THREAD_MULTIPLE 3, as provided
  std::uint32_t clock_count = 0;  // ClockSyncRecords that follow
  std::uint32_t communicator_count = 0;
  std::uint32_t reserved = 0;
  std::uint64_t latency_ns = 0;             // half the smallest round trip to rank 0 (or 1) at MPI_Init
  std::uint64_t bandwidth_bytes_per_s = 0;  // measured at MPI_Init; 0 when not measured
  Str library{};                            // MPI_Get_library_version, first line
};

// One clock offset measurement (DESIGN.md section 5), the exchange with the smallest round trip.
// On rank r != 0: `send_ns`/`recv_ns` are r's own times of the exchange. On rank 0: one record per
// other rank with `master_ns`, rank 0's time at which it answered that rank. The analysis joins them:
// offset(r) = master_ns - (send_ns + recv_ns) / 2.
struct ClockSyncRecord {
  std::uint32_t phase = 0;  // ClockPhase
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
  std::uint64_t sequence = 0;  // the communicator's collective count before this call
  std::uint64_t arrive_ns = 0;
  std::uint64_t leave_ns = 0;
  std::uint32_t thread = 0;
  std::uint32_t node = kNoParent;
  std::uint32_t site = 0;
  std::uint32_t reserved = 0;
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
void fields(LimitsRecord& r, F&& f) {
  f(r.threads_not_measured);
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
      f(r.sync_ns), f(r.sync_max_ns), f(r.bytes), f(r.partner_min), f(r.partner_max), f(r.partner_set),
      f(r.overlap_ns), f(r.last_begin_ns), f(r.last_end_ns);
}
template <class F>
void fields(MpiRecord& r, F&& f) {
  f(r.world_rank), f(r.world_size), f(r.thread_level), f(r.clock_count), f(r.communicator_count),
      f(r.reserved), f(r.latency_ns), f(r.bandwidth_bytes_per_s), f(r.library);
}
template <class F>
void fields(ClockSyncRecord& r, F&& f) {
  f(r.phase), f(r.reserved), f(r.rank), f(r.send_ns), f(r.recv_ns), f(r.master_ns), f(r.round_trip_ns);
}
template <class F>
void fields(CommunicatorRecord& r, F&& f) {
  f(r.id), f(r.size), f(r.rank), f(r.members_hash), f(r.ordinal), f(r.instance_count), f(r.collectives),
      f(r.stride);
}
template <class F>
void fields(CollectiveInstanceRecord& r, F&& f) {
  f(r.sequence), f(r.arrive_ns), f(r.leave_ns), f(r.thread), f(r.node), f(r.site), f(r.reserved);
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
