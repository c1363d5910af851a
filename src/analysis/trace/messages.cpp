#include "analysis/trace/messages.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

#include "analysis/trace/mpi_call_kinds.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {
namespace {

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
  void collective(const TracedCall& call) {
    const InstanceKey key{call.members_hash, call.ordinal, static_cast<std::uint64_t>(call.match)};
    auto [it, created] = open_instances.try_emplace(key);
    CollectiveInstance& instance = it->second.first;
    if (created) {
      instance.members_hash = call.members_hash;
      instance.ordinal = call.ordinal;
      instance.sequence = static_cast<std::uint64_t>(call.match);
      instance.kind = call.side.kind;
      instance.root = call.partner;
      instance.blocking = !call.nonblocking_collective;
      it->second.second = call.communicator_size;
    }
    instance.members.push_back(call.side);
    if (instance.members.size() < it->second.second) return;
    result.collectives.push_back(std::move(instance));
    open_instances.erase(it);
  }
  void call(const TracedCall& c) {
    if (format::is_mpi_collective_kind(c.side.kind)) return collective(c);
    if (c.partner < 0) return;
    // A Sendrecv is traced with a communicator only when it exchanges with one partner under one
    // tag: it sends to its partner and receives from it.
    if (sends_message(c.side.kind))
      send({c.side.rank, c.partner, c.members_hash, c.ordinal, c.match}, c.side, c.bytes);
    if (receives_message(c.side.kind))
      receive({c.partner, c.side.rank, c.members_hash, c.ordinal, c.match}, c.side);
  }
  Communication finish(const ProfileIndex& profiles) {
    for (const auto& [key, queue] : sends) result.unmatched_sends += queue.size();
    for (const auto& [key, queue] : receives) result.unmatched_receives += queue.size();
    result.incomplete_collectives = open_instances.size();
    for (CollectiveInstance& c : result.collectives) {
      std::sort(c.members.begin(), c.members.end(),
                [](const CallSide& a, const CallSide& b) { return a.rank < b.rank; });
      c.name = profiles.site_name(c.members.front().rank, c.members.front().site);
    }
    std::sort(result.collectives.begin(), result.collectives.end(),
              [](const CollectiveInstance& a, const CollectiveInstance& b) {
                return std::tie(a.members_hash, a.ordinal, a.sequence) <
                       std::tie(b.members_hash, b.ordinal, b.sequence);
              });
    return std::move(result);
  }
};

}  // namespace

Communication match_calls(const std::vector<RankCalls>& ranks, const ProfileIndex& profiles) {
  Matcher matcher;
  for (const RankCalls& rank : ranks)
    for (const TracedCall& call : rank.calls) matcher.call(call);
  return matcher.finish(profiles);
}

Communication match_communication(const TraceRun& traces) {
  std::vector<RankCalls> ranks;
  for (const RankTrace& rank : traces.ranks) ranks.push_back(extract_calls(rank, traces.clocks));
  return match_calls(ranks, ProfileIndex(traces));
}

}  // namespace parperf::analysis
