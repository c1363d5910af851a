#include "analysis/trace/messages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "analysis/trace/channel_queue.hpp"
#include "analysis/trace/communication_calls.hpp"

namespace parperf::analysis {
namespace {

using communication_calls::InstanceKey;
using communication_calls::KeyHash;
using communication_calls::MessageKey;

struct Matcher {
  Communication result;
  std::unordered_map<MessageKey, ChannelQueue, KeyHash> waiting;  // one lookup a call
  std::unordered_map<InstanceKey, std::pair<CollectiveInstance, std::uint32_t>, KeyHash>
      open_instances;  // with the size

  void message(const MessageKey& key, bool is_send, const CallSide& side, CallKind kind,
               std::uint64_t bytes) {
    waiting[key].offer(std::get<4>(key), is_send, side, kind, bytes, result.messages);
  }
  void collective(const InstanceKey& key, std::uint32_t size, const CallSide& side, std::uint32_t kind,
                  std::string_view name, std::int64_t root) {
    auto [it, created] = open_instances.try_emplace(key);
    CollectiveInstance& instance = it->second.first;
    if (created) {
      instance.members_hash = std::get<0>(key);
      instance.ordinal = std::get<1>(key);
      instance.sequence = std::get<2>(key);
      instance.kind = kind;
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
  std::vector<WindowLockEvent> window_locks;

  void one_sided(const OneSidedTransfer& t) { result.one_sided.push_back(t); }
  void window_lock(const WindowLockEvent& e) { window_locks.push_back(e); }
  std::vector<WindowEpochEvent> window_epochs;
  void window_epoch(const WindowEpochEvent& e) { window_epochs.push_back(e); }
  Communication finish() {
    hand_over_locks(std::move(window_locks), result.window_locks, result.shmem_locks);
    result.window_epochs = link_window_epochs(std::move(window_epochs));
    for (const auto& [key, calls] : waiting)
      (calls.waiting_sends() ? result.unmatched_sends : result.unmatched_receives) += calls.waiting();
    result.incomplete_collectives = open_instances.size();
    std::sort(result.collectives.begin(), result.collectives.end(),
              [](const CollectiveInstance& a, const CollectiveInstance& b) {
                return std::tie(a.members_hash, a.ordinal, a.sequence) <
                       std::tie(b.members_hash, b.ordinal, b.sequence);
              });
    return std::move(result);
  }
};

}  // namespace

Communication match_communication(const TraceRun& traces, StreamObserver* observer) {
  Matcher matcher;
  communication_calls::read_calls(traces, matcher, observer);
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
