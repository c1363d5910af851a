// The decoded content of one profile file: what the analysis works with. Owns its strings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/records.hpp"

namespace parperf::format {

struct ProcessInfo {
  std::int64_t rank = 0;
  std::int64_t world_size = 1;
  std::int64_t pid = 0;
  std::uint64_t start_unix_ns = 0;
  std::uint64_t duration_ns = 0;
  EndReason end_reason = EndReason::exit;
  std::uint32_t end_signal = 0;
  ClockSource clock_source = ClockSource::tsc;
  std::uint32_t thread_count = 0;
  std::uint64_t ticks_per_second = 0;
  std::uint64_t max_depth = 0;
  std::uint64_t dropped_intervals = 0;
  std::string hostname;
  std::string command_line;
  std::string parperf_version;
  std::string openmp_runtime{};
};

struct Site {
  std::uint32_t id = 0;
  std::uint32_t kind = 0;  // SiteKind
  std::int64_t line = 0;
  std::string name;
  std::string file;
  std::uint64_t address = 0;  // module-relative code address of a collector's site, 0 if none
  std::uint64_t end_address = 0;
  std::uint32_t parent = kNoParent;  // the construct of an implicit or join barrier
  std::string module{};
};

struct Event {
  std::uint32_t id = 0;
  std::string name;
  std::string description;
};

struct EventStats {
  std::uint32_t event = 0;
  std::uint64_t starts = 0;
  std::uint64_t ends = 0;
  std::uint64_t atomics = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::string first_description;
};

struct OperationStats {
  std::uint32_t site = 0;
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t wait_ns = 0;
  std::uint64_t wait_max_ns = 0;
  std::uint64_t sync_ns = 0;
  std::uint64_t sync_max_ns = 0;
  std::uint64_t bytes = 0;
  std::int64_t partner_min = kNoPartner;
  std::int64_t partner_max = kNoPartner;
  std::uint64_t partner_set = 0;
  std::uint64_t overlap_ns = 0;
  std::uint64_t last_begin_ns = 0;  // time stamps of the last call
  std::uint64_t last_end_ns = 0;
};

struct Node {
  std::uint32_t parent = kNoParent;
  std::uint32_t site = 0;
  std::int64_t value = 0;
  std::uint64_t count = 0;
  std::uint64_t sum_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  std::uint64_t last_begin_ns = 0;
  std::uint64_t open_ns = 0;
  bool open = false;
  bool context = false;  // only the path of a parallel region this thread joined (no time of its own)
  std::uint64_t os_user_self_ns = 0;
  std::uint64_t os_sys_self_ns = 0;
  std::uint64_t iterations = 0;
  std::uint64_t iteration_sum_ns = 0;
  std::uint64_t iteration_min_ns = 0;
  std::uint64_t iteration_max_ns = 0;
  std::vector<EventStats> events;
  std::vector<OperationStats> operations;
};

struct Thread {
  std::uint32_t index = 0;
  bool ended = false;
  std::int64_t os_tid = 0;
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  ThreadKind kind = ThreadKind::other;
  std::uint64_t parked_ns = 0;
  std::vector<Node> nodes;  // pre-order; nodes[0] is the root (program) node
};

// The MPI collector's section (records.hpp has the meaning of each field).
struct ClockSync {
  ClockPhase phase = ClockPhase::init;
  std::int64_t rank = 0;
  std::uint64_t send_ns = 0;
  std::uint64_t recv_ns = 0;
  std::uint64_t master_ns = 0;
  std::uint64_t round_trip_ns = 0;
};

struct CollectiveInstance {
  std::uint64_t sequence = 0;
  std::uint64_t arrive_ns = 0;
  std::uint64_t leave_ns = 0;      // 0: a non-blocking collective (no departure)
  std::uint32_t thread = 0;        // thread index (Thread::index)
  std::uint32_t node = kNoParent;  // index into that thread's nodes
  std::uint32_t site = 0;
};

struct Communicator {
  std::uint32_t id = 0;
  std::uint32_t size = 0;
  std::int64_t rank = 0;
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint64_t collectives = 0;
  std::uint64_t stride = 1;
  std::vector<CollectiveInstance> instances;  // the sample, by sequence
};

struct MpiInfo {
  std::int64_t world_rank = 0;
  std::int64_t world_size = 1;
  std::int32_t thread_level = 0;
  std::uint64_t latency_ns = 0;
  std::uint64_t bandwidth_bytes_per_s = 0;
  std::string library;
  std::vector<ClockSync> clock;
  std::vector<Communicator> communicators;
};

struct Profile {
  ProcessInfo process;
  std::vector<Site> sites;  // any order; look up by id
  std::vector<Event> events;
  std::vector<Thread> threads;
  bool has_mpi = false;  // the MPI collector ran: `mpi` holds its section
  MpiInfo mpi{};
  std::uint64_t threads_not_measured = 0;  // from the limits section (3.1); 0 in a 3.0 file
};

}  // namespace parperf::format
