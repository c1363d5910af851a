#include "analysis/trace/messages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "analysis/trace/timeline_merge.hpp"

namespace parperf::analysis {
namespace {

// A communicator as every member knows it.
struct CommunicatorIdentity {
  std::uint64_t members_hash = 0;
  std::uint32_t ordinal = 0;
  std::uint32_t size = 0;
};

// What one rank's events refer to, looked up once.
struct RankContext {
  const RankTrace* trace = nullptr;
  double ns_per_tick = 1;
  std::unordered_map<std::uint32_t, const format::Site*> sites;
  std::unordered_map<std::uint32_t, CommunicatorIdentity> communicators;  // by the events' id (+1)

  explicit RankContext(const RankTrace& rank)
      : trace(&rank), ns_per_tick(analysis::ns_per_tick(*rank.trace)) {
    if (!rank.profile) return;
    for (const format::Site& s : rank.profile->sites) sites[s.id] = &s;
    for (const format::Communicator& c : rank.profile->mpi.communicators)
      communicators[c.id + 1] = {c.members_hash, c.ordinal, c.size};
  }
  std::uint32_t kind_of(std::uint32_t site) const {
    const auto it = sites.find(site);
    return it == sites.end() ? 0 : it->second->kind;
  }
  std::string_view name_of(std::uint32_t site) const {
    const auto it = sites.find(site);
    return it == sites.end() ? std::string_view{} : std::string_view(it->second->name);
  }
};

using MessageKey = std::tuple<std::int64_t, std::int64_t, std::uint64_t, std::uint32_t, std::int64_t>;
using InstanceKey = std::tuple<std::uint64_t, std::uint32_t, std::uint64_t>;

struct PendingSend {
  CallSide side;
  std::uint64_t bytes = 0;
};

struct Matcher {
  Communication result;
  std::map<MessageKey, std::deque<PendingSend>> sends;
  std::map<MessageKey, std::deque<CallSide>> receives;
  std::map<InstanceKey, std::pair<CollectiveInstance, std::uint32_t>> open_instances;  // with the size

  void send(const MessageKey& key, const CallSide& side, std::uint64_t bytes) {
    auto waiting = receives.find(key);
    if (waiting != receives.end() && !waiting->second.empty()) {
      result.messages.push_back({side, waiting->second.front(), std::get<4>(key), bytes});
      waiting->second.pop_front();
      return;
    }
    sends[key].push_back({side, bytes});
  }
  void receive(const MessageKey& key, const CallSide& side) {
    auto sent = sends.find(key);
    if (sent != sends.end() && !sent->second.empty()) {
      result.messages.push_back(
          {sent->second.front().side, side, std::get<4>(key), sent->second.front().bytes});
      sent->second.pop_front();
      return;
    }
    receives[key].push_back(side);
  }
  void collective(const InstanceKey& key, std::uint32_t size, const CallSide& side, std::string_view name,
                  std::int64_t root) {
    auto [it, created] = open_instances.try_emplace(key);
    CollectiveInstance& instance = it->second.first;
    if (created) {
      instance.members_hash = std::get<0>(key);
      instance.ordinal = std::get<1>(key);
      instance.sequence = std::get<2>(key);
      instance.kind = side.kind;
      instance.name = std::string(name);
      instance.root = root;
      // MPI_Ibarrier, MPI_Ibcast, ...: the call only starts the collective.
      instance.blocking = !(name.size() > 5 && name.substr(0, 5) == "MPI_I");
      it->second.second = size;
    }
    instance.members.push_back(side);
    if (instance.members.size() < it->second.second) return;
    std::sort(instance.members.begin(), instance.members.end(),
              [](const CallSide& a, const CallSide& b) { return a.rank < b.rank; });
    result.collectives.push_back(std::move(instance));
    open_instances.erase(it);
  }
  Communication finish() {
    for (const auto& [key, queue] : sends) result.unmatched_sends += queue.size();
    for (const auto& [key, queue] : receives) result.unmatched_receives += queue.size();
    result.incomplete_collectives = open_instances.size();
    std::sort(result.collectives.begin(), result.collectives.end(),
              [](const CollectiveInstance& a, const CollectiveInstance& b) {
                return std::tie(a.members_hash, a.ordinal, a.sequence) <
                       std::tie(b.members_hash, b.ordinal, b.sequence);
              });
    return std::move(result);
  }
};

// The put or get `e` is, or nothing for another operation.
std::optional<OneSidedTransfer> one_sided_transfer(const RankContext& rank, const TimelineEvent& e,
                                                   const ClockCorrection& clocks) {
  const format::SiteKindInfo* info = format::site_kind_info(rank.kind_of(e.event.site));
  if (!info || (info->site_class != format::SiteClass::put && info->site_class != format::SiteClass::get))
    return std::nullopt;
  OneSidedTransfer t;
  t.origin = {e.rank,
              e.thread,
              e.event.site,
              static_cast<std::uint32_t>(info->kind),
              e.time_ns,
              clocks.apply(e.rank, e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick),
              e.index};
  t.target = e.event.partner;
  t.put = info->site_class == format::SiteClass::put;
  t.bytes = e.event.bytes;
  return t;
}

}  // namespace

Communication match_communication(const TraceRun& traces) {
  std::unordered_map<std::int64_t, RankContext> ranks;
  for (const RankTrace& rank : traces.ranks) ranks.try_emplace(rank.rank, rank);
  Matcher matcher;
  auto streams = all_thread_streams(traces);
  merge_timeline(streams, traces.clocks, [&](const TimelineEvent& e) {
    if (e.event.kind != format::TraceEventKind::operation) return;
    const RankContext& rank = ranks.at(e.rank);
    if (e.event.partner >= 0)
      if (const auto transfer = one_sided_transfer(rank, e, traces.clocks))
        matcher.result.one_sided.push_back(*transfer);
    if (e.event.communicator == 0) return;
    const auto communicator = rank.communicators.find(e.event.communicator);
    if (communicator == rank.communicators.end()) return;  // not in the profile: no identity to match on
    const CommunicatorIdentity& id = communicator->second;
    CallSide side;
    side.rank = e.rank;
    side.thread = e.thread;
    side.site = e.event.site;
    side.kind = rank.kind_of(e.event.site);
    side.start_ns = e.time_ns;
    side.end_ns =
        traces.clocks.apply(e.rank, e.local_ns + static_cast<double>(e.event.duration) * rank.ns_per_tick);
    side.index = e.index;
    if (format::is_mpi_collective_kind(side.kind)) {
      matcher.collective({id.members_hash, id.ordinal, static_cast<std::uint64_t>(e.event.match)}, id.size,
                         side, rank.name_of(e.event.site), e.event.partner);
      return;
    }
    if (e.event.partner < 0) return;
    // A Sendrecv is traced with a communicator only when it exchanges with one partner under one
    // tag: it sends to its partner and receives from it.
    if (sends_message(side.kind))
      matcher.send({e.rank, e.event.partner, id.members_hash, id.ordinal, e.event.match}, side,
                   e.event.bytes);
    if (receives_message(side.kind))
      matcher.receive({e.event.partner, e.rank, id.members_hash, id.ordinal, e.event.match}, side);
  });
  return matcher.finish();
}

std::string site_location(const RankTrace& rank, std::uint32_t site) {
  if (rank.profile)
    for (const format::Site& s : rank.profile->sites) {
      if (s.id != site) continue;
      const SiteLocation where =
          rank.sites ? rank.sites->location(rank.rank, s) : SiteLocation{s.file, s.line, 0, {}, {}};
      // The file's name, as the rest of the report names source files (the path is in the sites).
      const std::string file = std::filesystem::path(where.file).filename().string();
      if (!file.empty()) return where.line > 0 ? fmt::format("{}:{}", file, where.line) : file;
    }
  return site_name(rank, site);
}

}  // namespace parperf::analysis
