#include "export/otf2_communicators.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "format/shmem_active_set.hpp"

namespace parperf::exports {

namespace {
constexpr std::string_view kMpiLocations = "MPI ranks", kShmemLocations = "OpenSHMEM PEs";
}  // namespace

Otf2Communicators::Otf2Communicators(const TimelineNames& names) : names_(names) {
  for (std::size_t i = 0; i < names.ranks().size(); ++i) rank_index_[names.ranks()[i].rank] = i;
  Otf2Communicator world{"MPI_COMM_WORLD", OTF2_PARADIGM_MPI, {}, {}, next_group()};
  for (std::size_t i = 0; i < names.ranks().size(); ++i) {
    world.members.push_back(i);
    world.rank_in[names.ranks()[i].rank] = static_cast<std::uint32_t>(i);
  }
  comms_.push_back(std::move(world));
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::map<std::int64_t, std::int64_t>>
      members;  // by comm rank
  for (const RankInfo& r : names.ranks()) {
    if (!r.profile || !r.profile->has_mpi) continue;
    for (const format::Communicator& c : r.profile->mpi.communicators)
      members[{c.members_hash, c.ordinal}][c.rank] = r.rank;
  }
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::size_t> index;
  for (const auto& [key, by_rank] : members) {
    Otf2Communicator comm{
        fmt::format("communicator {} of {} ranks", key.second, by_rank.size()), OTF2_PARADIGM_MPI, {}, {}, 0};
    for (const auto& [comm_rank, world_rank] : by_rank) {
      // Only traced ranks have profiles here, so every member has a location group.
      comm.members.push_back(rank_index_.at(world_rank));
      comm.rank_in[world_rank] = static_cast<std::uint32_t>(comm_rank);
    }
    // The first communicator of every traced rank, each at its own rank, is MPI_COMM_WORLD itself.
    const bool is_world = key.second == 0 && comm.rank_in == comms_[0].rank_in;
    index[key] = is_world ? 0 : comms_.size();
    if (!is_world) {
      comm.group = next_group();
      comms_.push_back(std::move(comm));
    }
  }
  for (const RankInfo& r : names.ranks()) {
    if (!r.profile || !r.profile->has_mpi) continue;
    for (const format::Communicator& c : r.profile->mpi.communicators)
      comm_of_[{r.rank, c.id}] = index.at({c.members_hash, c.ordinal});
  }
}

std::size_t Otf2Communicators::mpi_communicator(std::int64_t rank, std::uint32_t communicator) const {
  if (communicator == 0) return 0;
  const auto it = comm_of_.find({rank, communicator - 1});
  return it != comm_of_.end() ? it->second : 0;
}

bool Otf2Communicators::names_mpi_communicator(std::int64_t rank, std::uint32_t communicator) const {
  return communicator != 0 && comm_of_.contains({rank, communicator - 1});
}

std::uint32_t Otf2Communicators::rank_in(std::size_t comm, std::int64_t rank) const {
  const auto it = comms_[comm].rank_in.find(rank);
  return it != comms_[comm].rank_in.end() ? it->second : OTF2_UNDEFINED_UINT32;
}

std::size_t Otf2Communicators::shmem_communicator(std::int64_t active_set) {
  format::ShmemActiveSet set;
  if (!format::shmem_active_set_of(active_set, set)) active_set = 0;
  if (const auto it = shmem_comms_.find(active_set); it != shmem_comms_.end()) return it->second;
  if (!shmem_locations_) shmem_locations_ = next_group();
  Otf2Communicator comm;
  comm.paradigm = OTF2_PARADIGM_SHMEM;
  comm.group = next_group();
  if (active_set == 0) {
    std::int64_t pes = 0;  // shmem_n_pes, as the profiles say it
    for (const RankInfo& r : names_.ranks()) {
      pes = std::max(pes, r.rank + 1);
      if (r.profile && r.profile->has_shmem) pes = std::max(pes, r.profile->shmem.pe_count);
    }
    comm.name = fmt::format("all {} PEs", pes);
    set = {.start = 0, .log_stride = 0, .size = pes};
  } else {
    comm.name = fmt::format("active set (PE_start {}, logPE_stride {}, PE_size {})", set.start,
                            set.log_stride, set.size);
  }
  // The traced PEs of the set, in PE order (the ranks' order), each at its place in the set: a PE
  // without a trace has no location and is left out, as MPI's communicators leave out the ranks
  // without a profile. Over the traced ranks, not the set's size, which a damaged trace may make huge.
  for (std::size_t i = 0; i < names_.ranks().size(); ++i)
    if (const std::int64_t pe = names_.ranks()[i].rank; set.contains(pe)) {
      comm.members.push_back(i);
      comm.rank_in[pe] = static_cast<std::uint32_t>((pe - set.start) >> set.log_stride);
    }
  comms_.push_back(std::move(comm));
  shmem_comms_[active_set] = comms_.size() - 1;
  return comms_.size() - 1;
}

OTF2_RmaWinRef Otf2Communicators::window(std::size_t comm) {
  const auto [it, added] = window_of_.try_emplace(comm, static_cast<OTF2_RmaWinRef>(windows_.size()));
  if (added) windows_.push_back(comm);
  return it->second;
}

OTF2_GroupRef Otf2Communicators::rank_group(const std::vector<std::int64_t>& world_ranks) {
  std::vector<std::uint64_t> members;
  for (std::int64_t rank : world_ranks)
    if (const auto it = rank_index_.find(rank); it != rank_index_.end()) members.push_back(it->second);
  const auto [it, added] = rank_groups_.try_emplace(std::move(members), 0);
  if (added) it->second = next_group();
  return it->second;
}

OTF2_ErrorCode Otf2Communicators::write(OTF2_GlobalDefWriter* defs,
                                        const std::vector<std::uint64_t>& rank_locations,
                                        const std::function<OTF2_StringRef(std::string_view)>& string) const {
  OTF2_ErrorCode status = OTF2_SUCCESS;
  const auto check = [&](OTF2_ErrorCode code) {
    if (status == OTF2_SUCCESS) status = code;
  };
  // Groups in the order of their references, as OTF2 wants its definitions of one kind.
  struct Group {
    std::string_view name;
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    const std::vector<std::uint64_t>* members;
  };
  std::map<OTF2_GroupRef, Group> groups;
  std::vector<std::string> rank_group_names;
  rank_group_names.reserve(rank_groups_.size());
  groups[0] = {kMpiLocations, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, &rank_locations};
  if (shmem_locations_)
    groups[*shmem_locations_] = {kShmemLocations, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_SHMEM,
                                 &rank_locations};
  for (const Otf2Communicator& c : comms_)
    groups[c.group] = {c.name, OTF2_GROUP_TYPE_COMM_GROUP, c.paradigm, &c.members};
  for (const auto& [members, ref] : rank_groups_)
    groups[ref] = {rank_group_names.emplace_back(rank_group_name(members)), OTF2_GROUP_TYPE_COMM_GROUP,
                   OTF2_PARADIGM_MPI, &members};
  for (const auto& [ref, g] : groups)
    check(OTF2_GlobalDefWriter_WriteGroup(defs, ref, string(g.name), g.type, g.paradigm, OTF2_GROUP_FLAG_NONE,
                                          static_cast<std::uint32_t>(g.members->size()), g.members->data()));
  for (std::size_t i = 0; i < comms_.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteComm(defs, static_cast<OTF2_CommRef>(i), string(comms_[i].name),
                                         comms_[i].group, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
  for (std::size_t w = 0; w < windows_.size(); ++w)
    check(OTF2_GlobalDefWriter_WriteRmaWin(defs, static_cast<OTF2_RmaWinRef>(w), string(window_name(w)),
                                           static_cast<OTF2_CommRef>(windows_[w]), OTF2_RMA_WIN_FLAG_NONE));
  return status;
}

void Otf2Communicators::for_each_name(const std::function<void(std::string_view)>& f) const {
  f(kMpiLocations);
  if (shmem_locations_) f(kShmemLocations);
  for (const Otf2Communicator& c : comms_) f(c.name);
  for (const auto& [members, ref] : rank_groups_) f(rank_group_name(members));
  for (std::size_t w = 0; w < windows_.size(); ++w) f(window_name(w));
}

std::string Otf2Communicators::window_name(std::size_t window) const {
  const Otf2Communicator& c = comms_[windows_[window]];
  return (c.paradigm == OTF2_PARADIGM_SHMEM ? "symmetric heap of " : "window of ") + c.name;
}

std::string Otf2Communicators::rank_group_name(const std::vector<std::uint64_t>& members) {
  std::string name = "ranks";
  for (std::size_t i = 0; i < members.size(); ++i) name += fmt::format("{}{}", i ? ", " : " ", members[i]);
  return name;
}

}  // namespace parperf::exports
