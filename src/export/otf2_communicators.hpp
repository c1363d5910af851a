// The communicators, groups and RMA windows of an OTF2 archive (otf2_writer.hpp): MPI's from the
// ranks' profiles, known before the first event; OpenSHMEM's, RMA windows and the groups that
// post-start-complete-wait synchronizes with, as the events name them. Every reference is fixed when
// it is first handed out (an event names it before the definitions are written, at the end).
//
// Groups: 0 is MPI's locations (each rank's first thread, in rank order), then one group per MPI
// communicator; the others are numbered as they come. OpenSHMEM's communicators are the set of all
// PEs and each active set a collective names (PE_start, logPE_stride, PE_size), over a locations
// group of their own (paradigm SHMEM). A window is MPI's window (its CommunicatorRecord, as the
// collector registers it) or the symmetric heap of an OpenSHMEM communicator.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "export/timeline_names.hpp"

namespace parperf::exports {

struct Otf2Communicator {
  std::string name;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_MPI;
  std::vector<std::uint64_t> members;  // indices of ranks (in TimelineNames::ranks() order), by comm rank
  std::unordered_map<std::int64_t, std::uint32_t> rank_in;  // world rank (or PE) -> comm rank
  OTF2_GroupRef group = 0;
};

class Otf2Communicators {
 public:
  // MPI's communicators from every traced rank's profile, identified across ranks by (members'
  // hash, ordinal); MPI_COMM_WORLD first, also for operations that name none.
  explicit Otf2Communicators(const TimelineNames& names);

  const Otf2Communicator& operator[](std::size_t comm) const { return comms_[comm]; }
  // The traced rank's index in TimelineNames::ranks() (its location group).
  std::size_t rank_index(std::int64_t rank) const { return rank_index_.at(rank); }

  // The communicator of an MPI operation (its `communicator`, the rank's CommunicatorRecord id + 1;
  // MPI_COMM_WORLD when it names none or one its profile does not list).
  std::size_t mpi_communicator(std::int64_t rank, std::uint32_t communicator) const;
  // Whether the rank's operation names a communicator its profile lists.
  bool names_mpi_communicator(std::int64_t rank, std::uint32_t communicator) const;
  // `rank`'s rank in the communicator: OTF2_UNDEFINED_UINT32 for no member of it (a damaged
  // trace's partner, which cut to 32 bits would name another member).
  std::uint32_t rank_in(std::size_t comm, std::int64_t rank) const;

  // OpenSHMEM's communicator of every PE, and of an active set (a collective's `match`, 0 for all).
  std::size_t shmem_communicator(std::int64_t active_set);

  // The RMA window over an MPI window's communicator, or an OpenSHMEM communicator's symmetric heap.
  OTF2_RmaWinRef window(std::size_t comm);
  std::size_t window_communicator(OTF2_RmaWinRef window) const { return windows_[window]; }

  // The group of the ranks `world_ranks` (of MPI_COMM_WORLD; those without a trace left out), as
  // post-start-complete-wait names them.
  OTF2_GroupRef rank_group(const std::vector<std::int64_t>& world_ranks);

  // The names write() gives the definitions: OTF2 wants every string defined before it is named.
  void for_each_name(const std::function<void(std::string_view)>& f) const;
  // Writes the groups, communicators and windows, naming them through `string`. `rank_locations`:
  // each rank's location that stands for it in the locations groups (its first thread).
  OTF2_ErrorCode write(OTF2_GlobalDefWriter* defs, const std::vector<std::uint64_t>& rank_locations,
                       const std::function<OTF2_StringRef(std::string_view)>& string) const;

 private:
  OTF2_GroupRef next_group() { return next_group_++; }
  std::string window_name(std::size_t window) const;
  // "ranks 0, 2": the ranks' indices in the locations group, as their world ranks when all are traced.
  static std::string rank_group_name(const std::vector<std::uint64_t>& members);

  const TimelineNames& names_;
  std::vector<Otf2Communicator> comms_;  // [0]: MPI_COMM_WORLD
  // (rank, CommunicatorRecord::id) -> index in comms_
  std::map<std::pair<std::int64_t, std::uint32_t>, std::size_t> comm_of_;
  std::unordered_map<std::int64_t, std::size_t> rank_index_;
  std::map<std::int64_t, std::size_t> shmem_comms_;  // by active set (0: every PE)
  std::optional<OTF2_GroupRef> shmem_locations_;
  std::vector<std::size_t> windows_;  // by window ref: its communicator
  std::map<std::size_t, OTF2_RmaWinRef> window_of_;
  std::map<std::vector<std::uint64_t>, OTF2_GroupRef> rank_groups_;
  OTF2_GroupRef next_group_ = 1;  // 0: MPI's locations
};

}  // namespace parperf::exports
