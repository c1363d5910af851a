#include "analysis/trace/part_matching.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/trace/channel_queue.hpp"
#include "analysis/trace/communication_calls.hpp"
#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

using communication_calls::InstanceKey;
using communication_calls::KeyHash;
using communication_calls::merge_key;
using communication_calls::MessageKey;

constexpr std::uint32_t kNoPart = ~std::uint32_t{0};

// A send, for its receiver's part: its channel and its place among the channel's sends.
struct SendCall {
  MessageKey key;
  std::uint64_t sequence = 0;
  CallSide side;
  CallKind kind = 0;
  std::uint64_t bytes = 0;
};
// A collective's member, for the part that puts its instance together.
struct MemberCall {
  InstanceKey key;
  std::uint32_t size = 0;
  CallSide side;
  std::uint32_t kind = 0;
  std::string name;
  std::int64_t root = -1;
};

void put_key(PartBytes& out, const MessageKey& k) {
  out.put(std::get<0>(k)), out.put(std::get<1>(k)), out.put(std::get<2>(k)), out.put(std::get<3>(k)),
      out.put(std::get<4>(k));
}
MessageKey take_key(PartBytesReader& in) {
  const auto sender = in.take<std::int64_t>();
  const auto receiver = in.take<std::int64_t>();
  const auto hash = in.take<std::uint64_t>();
  const auto ordinal = in.take<std::uint32_t>();
  return {sender, receiver, hash, ordinal, in.take<std::int64_t>()};
}

void put_instance(PartBytes& out, const CollectiveInstance& c) {
  out.put(c.members_hash), out.put(c.ordinal), out.put(c.sequence), out.put(c.kind), out.put_text(c.name);
  out.put(c.root), out.put(c.blocking), out.put_all(c.members);
}
CollectiveInstance take_instance(PartBytesReader& in) {
  CollectiveInstance c;
  c.members_hash = in.take<std::uint64_t>();
  c.ordinal = in.take<std::uint32_t>();
  c.sequence = in.take<std::uint64_t>();
  c.kind = in.take<std::uint32_t>();
  c.name = in.take_text();
  c.root = in.take<std::int64_t>();
  c.blocking = in.take<bool>();
  c.members = in.take_all<CallSide>();
  return c;
}

// What a part reads of its own ranks' calls.
struct OwnCalls {
  const std::unordered_map<std::int64_t, std::uint32_t>* part_of_rank = nullptr;
  std::uint32_t part = 0;
  // The channels both of whose ranks are the part's, paired as their calls come (as the whole run's
  // matching pairs them), and their messages: not held whole until the other parts' sends arrive.
  std::unordered_map<MessageKey, ChannelQueue, KeyHash> own_channels;
  std::vector<Message> paired;
  // The other channels' calls: sends to other parts' ranks, receives from them.
  std::unordered_map<MessageKey, std::vector<SendCall>, KeyHash> sends;  // by channel, in order
  std::unordered_map<MessageKey, std::vector<std::pair<CallSide, CallKind>>, KeyHash> receives;
  std::vector<MemberCall> members;
  std::vector<OneSidedTransfer> transfers;
  std::uint64_t sends_to_no_part = 0;  // to a rank without a trace: never paired

  std::uint32_t part_of(std::int64_t rank) const {
    const auto p = part_of_rank->find(rank);
    return p == part_of_rank->end() ? kNoPart : p->second;
  }
  void message(const MessageKey& key, bool is_send, const CallSide& side, CallKind kind,
               std::uint64_t bytes) {
    if (part_of(std::get<0>(key)) == part && part_of(std::get<1>(key)) == part) {
      own_channels[key].offer(std::get<4>(key), is_send, side, kind, bytes, paired);
      return;
    }
    if (is_send) {
      std::vector<SendCall>& channel = sends[key];
      channel.push_back({key, channel.size(), side, kind, bytes});
    } else {
      receives[key].emplace_back(side, kind);
    }
  }
  void collective(const InstanceKey& key, std::uint32_t size, const CallSide& side, std::uint32_t kind,
                  std::string_view name, std::int64_t root) {
    members.push_back({key, size, side, kind, std::string(name), root});
  }
  void one_sided(const OneSidedTransfer& t) { transfers.push_back(t); }
  std::vector<WindowLockEvent> window_locks;
  void window_lock(const WindowLockEvent& e) { window_locks.push_back(e); }
  std::vector<WindowEpochEvent> window_epochs;
  void window_epoch(const WindowEpochEvent& e) { window_epochs.push_back(e); }
};

std::uint32_t instance_part(const InstanceKey& key, std::uint32_t parts) {
  return static_cast<std::uint32_t>(KeyHash{}(key) % parts);
}

}  // namespace

Communication match_communication(const TraceRun& traces, const RankPartition& ranks, std::uint32_t part,
                                  PartExchange& exchange) {
  std::unordered_map<std::int64_t, std::uint32_t> part_of_rank;
  for (std::uint32_t p = 0; p < ranks.parts; ++p)
    for (std::size_t r = ranks.first_rank[p]; r < ranks.first_rank[p + 1]; ++r)
      part_of_rank.emplace(traces.ranks[r].rank, p);
  TraceRun own;
  own.ranks.assign(traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part]),
                   traces.ranks.begin() + static_cast<std::ptrdiff_t>(ranks.first_rank[part + 1]));
  own.clocks = traces.clocks;
  OwnCalls calls;
  calls.part_of_rank = &part_of_rank;
  calls.part = part;
  communication_calls::read_calls(own, calls);

  // Round one: the sends to their receivers' parts, the members to their instances' parts, the puts
  // into another part's ranks to it.
  std::vector<PartBytes> out(ranks.parts);
  std::vector<std::vector<SendCall>> sends_here;
  for (auto& [key, channel] : calls.sends) {
    const std::uint32_t to = calls.part_of(std::get<1>(key));
    if (to == kNoPart) {
      calls.sends_to_no_part += channel.size();
    } else if (to == part) {
      sends_here.push_back(std::move(channel));
    } else {
      out[to].put(std::uint8_t{0});
      put_key(out[to], key);
      out[to].put(static_cast<std::uint64_t>(channel.size()));
      for (const SendCall& s : channel) out[to].put(s.side), out[to].put(s.kind), out[to].put(s.bytes);
    }
  }
  std::vector<MemberCall> members_here;
  for (MemberCall& m : calls.members) {
    const std::uint32_t to = instance_part(m.key, ranks.parts);
    if (to == part) {
      members_here.push_back(std::move(m));
      continue;
    }
    out[to].put(std::uint8_t{1});
    out[to].put(std::get<0>(m.key)), out[to].put(std::get<1>(m.key)), out[to].put(std::get<2>(m.key));
    out[to].put(m.size), out[to].put(m.side), out[to].put(m.kind), out[to].put_text(m.name),
        out[to].put(m.root);
  }
  std::vector<OneSidedTransfer> one_sided = calls.transfers;  // its ranks', and the puts into them
  for (const OneSidedTransfer& t : calls.transfers) {
    const std::uint32_t to = calls.part_of(t.target);
    if (!t.put || t.target == t.origin.rank || to == kNoPart || to == part) continue;
    out[to].put(std::uint8_t{2});
    out[to].put(t);
  }
  for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, out))
    for (PartBytesReader in(bytes); !in.done();) {
      const auto what = in.take<std::uint8_t>();
      if (what == 0) {
        const MessageKey key = take_key(in);
        std::vector<SendCall>& channel = sends_here.emplace_back();
        for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
          SendCall s{key, channel.size(), in.take<CallSide>(), 0, 0};
          s.kind = in.take<CallKind>();
          s.bytes = in.take<std::uint64_t>();
          channel.push_back(s);
        }
      } else if (what == 1) {
        MemberCall m;
        const auto hash = in.take<std::uint64_t>();
        const auto ordinal = in.take<std::uint32_t>();
        m.key = {hash, ordinal, in.take<std::uint64_t>()};
        m.size = in.take<std::uint32_t>();
        m.side = in.take<CallSide>();
        m.kind = in.take<std::uint32_t>();
        m.name = in.take_text();
        m.root = in.take<std::int64_t>();
        members_here.push_back(std::move(m));
      } else {
        one_sided.push_back(in.take<OneSidedTransfer>());
      }
    }

  // The messages to this part's ranks: those of its own channels, paired already, and the other
  // parts' sends to its ranks, the n-th send of a channel with its n-th receive.
  Communication result;
  std::uint64_t unmatched_sends = calls.sends_to_no_part, unmatched_receives = 0;
  for (const auto& [key, queue] : calls.own_channels)
    (queue.waiting_sends() ? unmatched_sends : unmatched_receives) += queue.waiting();
  decltype(calls.own_channels)().swap(calls.own_channels);
  std::vector<Message> messages = std::move(calls.paired);
  std::size_t pairs = messages.size();  // reserved: grown by doubling, they were copied and faulted in again
  for (const std::vector<SendCall>& channel : sends_here) {
    const auto r = calls.receives.find(channel.front().key);
    pairs += std::min(channel.size(), r == calls.receives.end() ? 0 : r->second.size());
  }
  messages.reserve(pairs);
  for (std::vector<SendCall>& channel : sends_here) {
    auto r = calls.receives.find(channel.front().key);
    const std::size_t receives = r == calls.receives.end() ? 0 : r->second.size();
    const std::size_t paired = std::min(channel.size(), receives);
    for (std::size_t i = 0; i < paired; ++i) {
      const SendCall& s = channel[i];
      messages.push_back(
          {s.side, r->second[i].first, std::get<4>(s.key), s.bytes, s.kind, r->second[i].second});
    }
    unmatched_sends += channel.size() - paired;
    if (r != calls.receives.end()) {
      unmatched_receives += receives - paired;
      calls.receives.erase(r);
    }
  }
  for (const auto& [key, receives] : calls.receives) unmatched_receives += receives.size();

  // The collective instances put together here: a key's members in their order, `size` an instance
  // (the first member's name, kind and root, as the first to call it named it); a key left short is
  // an incomplete instance.
  std::stable_sort(members_here.begin(), members_here.end(), [](const MemberCall& a, const MemberCall& b) {
    return std::tie(a.key, a.side.start_ns, a.side.rank, a.side.thread, a.side.index) <
           std::tie(b.key, b.side.start_ns, b.side.rank, b.side.thread, b.side.index);
  });
  std::uint64_t incomplete = 0;
  std::vector<CollectiveInstance> instances;
  for (std::size_t i = 0; i < members_here.size();) {
    std::size_t end = i;
    while (end < members_here.size() && members_here[end].key == members_here[i].key) ++end;
    for (std::size_t first = i; first < end;) {
      const MemberCall& m = members_here[first];
      const std::size_t size = std::max<std::size_t>(m.size, 1);
      if (end - first < size) {
        ++incomplete;
        break;
      }
      CollectiveInstance& c = instances.emplace_back();
      c.members_hash = std::get<0>(m.key);
      c.ordinal = std::get<1>(m.key);
      c.sequence = std::get<2>(m.key);
      c.kind = m.kind;
      c.name = m.name;
      c.root = m.root;
      c.blocking = !(c.name.size() > 5 && c.name.substr(0, 5) == "MPI_I");
      for (std::size_t j = first; j < first + size; ++j) c.members.push_back(members_here[j].side);
      std::sort(c.members.begin(), c.members.end(),
                [](const CallSide& a, const CallSide& b) { return a.rank < b.rank; });
      first += size;
    }
    i = end;
  }

  // Round two: each message to its sender's part too, each instance to its members' parts.
  std::vector<PartBytes> back(ranks.parts);
  for (const Message& m : messages) {
    const std::uint32_t to = calls.part_of(m.send.rank);
    if (to != part) back[to].put(std::uint8_t{0}), back[to].put(m);
  }
  for (const CollectiveInstance& c : instances) {
    std::vector<std::uint32_t> to;
    for (const CallSide& m : c.members) to.push_back(calls.part_of(m.rank));
    std::sort(to.begin(), to.end());
    to.erase(std::unique(to.begin(), to.end()), to.end());
    for (const std::uint32_t p : to) {
      if (p == part) {
        result.collectives.push_back(c);
      } else {
        back[p].put(std::uint8_t{1});
        put_instance(back[p], c);
      }
    }
  }
  for (const std::vector<std::uint8_t>& bytes : exchange_with_every_part(exchange, back))
    for (PartBytesReader in(bytes); !in.done();) {
      if (in.take<std::uint8_t>() == 0)
        messages.push_back(in.take<Message>());
      else
        result.collectives.push_back(take_instance(in));
    }

  // In the whole run's order: a message by the later of its calls in the merged timeline, where the
  // whole run's matching pairs it; of two paired at one MPI_Sendrecv, the one it sends first (it
  // offers its send before its receive). An instance by communicator and sequence, a transfer by its
  // call. (The messages' order is the order of their edges into a node, and so which of two equally
  // late sources bound it: a Sendrecv's end waits for its partner's begin as a message and as a late
  // receiver.) Sorted by their places, not as messages of 88 bytes.
  struct Place {
    std::tuple<double, std::int32_t, std::uint32_t, std::uint32_t> call;
    bool receive;
    std::uint32_t message;
  };
  std::vector<Place> places;
  places.reserve(messages.size());
  for (std::uint32_t i = 0; i < messages.size(); ++i) {
    const auto send = merge_key(messages[i].send), receive = merge_key(messages[i].receive);
    places.push_back({std::max(send, receive), send < receive, i});
  }
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    return std::tie(a.call, a.receive) < std::tie(b.call, b.receive);
  });
  for (const Place& p : places) result.messages.push_back(messages[p.message]);
  std::vector<Message>().swap(messages);
  std::stable_sort(result.collectives.begin(), result.collectives.end(),
                   [](const CollectiveInstance& a, const CollectiveInstance& b) {
                     return std::tie(a.members_hash, a.ordinal, a.sequence) <
                            std::tie(b.members_hash, b.ordinal, b.sequence);
                   });
  std::sort(one_sided.begin(), one_sided.end(), [](const OneSidedTransfer& a, const OneSidedTransfer& b) {
    return merge_key(a.origin) < merge_key(b.origin);
  });
  result.one_sided = std::move(one_sided);

  // The window locks: every part's lock and unlock calls on every part, which hands the locks on as
  // the whole run's matching does (the handovers depend only on the calls), keeping what touches its
  // ranks.
  PartBytes locks;
  for (const WindowLockEvent& e : calls.window_locks) locks.put(e);
  std::vector<WindowLockEvent> every_lock;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(locks.bytes()))
    for (PartBytesReader in(each); !in.done();) every_lock.push_back(in.take<WindowLockEvent>());
  LockHandovers windows, shmem;
  hand_over_locks(std::move(every_lock), windows, shmem);
  const auto ours = [&](const CallSide& side) { return calls.part_of(side.rank) == part; };
  const auto keep_ours = [&](const LockHandovers& run, LockHandovers& kept) {
    for (const LockHandover& h : run.handovers)
      if (ours(h.release) || ours(h.acquisition)) kept.handovers.push_back(h);
    for (const CallSide& side : run.unlinked)
      if (ours(side)) kept.unlinked.push_back(side);
  };
  keep_ours(windows, result.window_locks);
  keep_ours(shmem, result.shmem_locks);
  // Post-start-complete-wait alike: every part's calls on every part, linked as the whole run's are.
  PartBytes epochs;
  for (const WindowEpochEvent& e : calls.window_epochs) epochs.put(e);
  std::vector<WindowEpochEvent> every_epoch_call;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(epochs.bytes()))
    for (PartBytesReader in(each); !in.done();) every_epoch_call.push_back(in.take<WindowEpochEvent>());
  keep_ours(link_window_epochs(std::move(every_epoch_call)), result.window_epochs);
  result.unmatched_sends = sum_of_parts(exchange, unmatched_sends);
  result.unmatched_receives = sum_of_parts(exchange, unmatched_receives);
  result.incomplete_collectives = sum_of_parts(exchange, incomplete);
  return result;
}

}  // namespace parperf::analysis
