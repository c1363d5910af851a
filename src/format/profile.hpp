// The decoded content of one profile file: what the analysis works with. The records of
// records.hpp, with owned strings and with the records that follow a record (a thread's nodes, a
// node's statistics, a communicator's instances) gathered under it. Nothing here is not in the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/records.hpp"

namespace parperf::format {

using ProcessInfo = ProcessFields<std::string>;

using Site = SiteFields<std::string>;

using Event = EventFields<std::string>;
using EventStats = EventStatsFields<std::string>;  // count: completed start/end pairs
using OperationStats = OperationStatsRecord;

struct Node : NodeRecord {
  std::vector<EventStats> events;  // NodeRecord::event_count of them
  std::vector<OperationStats> operations;
  // The distribution of the node's iteration times (the `iterations` section, since 3.3): none in
  // older files and for nodes without iterations.
  std::optional<IterationHistogram> iteration_histogram;

  // An entry was open when the profile was written (its elapsed time is open_ns).
  bool open() const { return (flags & kNodeOpen) != 0; }
  // Only the path of a parallel region this thread joined (no time of its own).
  bool context() const { return (flags & kNodeContext) != 0; }
  void set_flag(std::uint32_t flag, bool on) { flags = on ? flags | flag : flags & ~flag; }
};

struct Thread : ThreadRecord {
  std::vector<Node> nodes;  // pre-order; nodes[0] is the root (program) node
};

// The MPI collector's section (records.hpp has the meaning of each field).
using ClockSync = ClockSyncRecord;
using CollectiveInstance = CollectiveInstanceRecord;

struct Communicator : CommunicatorRecord {
  std::vector<CollectiveInstance> instances;  // the sample, by sequence
};

struct MpiInfo : MpiFields<std::string> {
  std::vector<ClockSync> clock;
  std::vector<Communicator> communicators;
};

// The OpenSHMEM collector's section: the PE and its one-sided traffic, by target PE and operation.
struct ShmemInfo : ShmemRecord {
  std::vector<ShmemTrafficRecord> traffic;
};

// The sampled call paths (section `call_paths`, since 3.4).
using CallPathModule = CallPathModuleFields<std::string>;
using CallPathNode = CallPathNodeRecord;
struct CallPathThread : CallPathThreadRecord {
  std::vector<CallPathNode> nodes;  // parents before children
};
struct CallPaths : CallPathsRecord {
  std::vector<CallPathModule> modules;  // by id
  std::vector<CallPathThread> threads;
};

struct Profile {
  ProcessInfo process;
  std::vector<Site> sites;  // any order; look up by id
  std::vector<Event> events;
  std::vector<Thread> threads;
  bool has_mpi = false;  // the MPI collector ran: `mpi` holds its section
  MpiInfo mpi{};
  bool has_shmem = false;  // the OpenSHMEM collector ran: `shmem` holds its section
  ShmemInfo shmem{};
  std::uint64_t threads_not_measured = 0;         // from the limits section (3.1); 0 in a 3.0 file
  std::vector<ProbeCostsRecord> probe_costs;      // from the probe_costs section (3.3): calibrated threads
  std::optional<CallPaths> call_paths;            // the call_paths section (3.4): when the run was sampled
  std::vector<SetupSamplesRecord> setup_samples;  // the setup_samples section (3.5): sampled threads
  std::uint64_t model_threads = 0;  // the model_threads section (3.8): the model's own threads, left out
};

}  // namespace parperf::format
