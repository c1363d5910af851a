#include "analysis/trace/window_epochs.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace parperf::analysis {
namespace {

auto call_order(const CallSide& s) { return std::tuple(s.rank, s.thread, s.index); }
auto merge_order(const CallSide& s) { return std::tuple(s.start_ns, s.rank, s.thread, s.index); }

// A post's exposure epoch or a start's access epoch: the call that opened it with its group, and the
// call that ended it (a wait or a test that said so; a complete), when the trace holds one.
struct Epoch {
  CallSide opened;
  std::vector<std::int64_t> members;
  bool group_known = true;  // its window and every member traced
  bool ended = false;
  CallSide end;
  bool start_linked = true;  // an access epoch's start: every post it may have waited for linked
  bool end_linked = true;    // an exposure epoch's wait: every complete it waited for linked
};

struct Epochs {
  std::vector<Epoch> access;    // starts, in their threads' order
  std::vector<Epoch> exposure;  // posts
};

// Each thread's calls gathered into epochs, per window: a post's or start's member events (match -1)
// follow its own event; the next complete ends a start's epoch, the next wait (or test that said so)
// a post's. A call whose window the trace does not name is never linked.
std::map<WindowKey, Epochs> epochs_of(std::vector<WindowEpochEvent>& events, std::vector<CallSide>& unknown) {
  std::sort(events.begin(), events.end(), [](const WindowEpochEvent& a, const WindowEpochEvent& b) {
    return call_order(a.side) < call_order(b.side);
  });
  std::map<WindowKey, Epochs> by_window;
  // The thread's epochs not yet ended, by window: indices into by_window's vectors.
  std::map<WindowKey, std::pair<std::size_t, std::size_t>> open;
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  Epoch* grouping = nullptr;  // the post or start whose members follow
  std::int64_t expected = 0;
  const auto close_group = [&] {
    if (grouping && static_cast<std::int64_t>(grouping->members.size()) != expected)
      grouping->group_known = false;
    grouping = nullptr;
  };
  for (std::size_t i = 0; i < events.size(); ++i) {
    const WindowEpochEvent& e = events[i];
    const bool new_thread =
        i == 0 || e.side.rank != events[i - 1].side.rank || e.side.thread != events[i - 1].side.thread;
    if (new_thread) {
      close_group();
      open.clear();
    }
    const bool member = (e.call == WindowEpochCall::post || e.call == WindowEpochCall::start) && e.match < 0;
    if (member) {
      if (grouping && e.side.site == grouping->opened.site) {
        grouping->members.push_back(e.partner);
        if (e.partner < 0) grouping->group_known = false;
      }
      continue;
    }
    close_group();
    if (!e.known_window) {
      if (e.call == WindowEpochCall::start || e.call == WindowEpochCall::wait) unknown.push_back(e.side);
      continue;
    }
    Epochs& mine = by_window[e.window];
    auto& [access, exposure] = open.try_emplace(e.window, kNone, kNone).first->second;
    switch (e.call) {
      case WindowEpochCall::post:
      case WindowEpochCall::start: {
        const bool is_start = e.call == WindowEpochCall::start;
        std::vector<Epoch>& list = is_start ? mine.access : mine.exposure;
        (is_start ? access : exposure) = list.size();
        Epoch& epoch = list.emplace_back();
        epoch.opened = e.side;
        expected = e.match;
        if (e.match > 0) epoch.members.push_back(e.partner);
        if (e.match > 0 && e.partner < 0) epoch.group_known = false;
        grouping = &epoch;
        break;
      }
      case WindowEpochCall::complete:
        if (access != kNone) {
          mine.access[access].ended = true;
          mine.access[access].end = e.side;
          access = kNone;
        }
        break;
      case WindowEpochCall::wait:
      case WindowEpochCall::test:
        if (e.call == WindowEpochCall::test && e.match != 1) break;  // the exposure goes on
        if (exposure != kNone) {
          mine.exposure[exposure].ended = true;
          mine.exposure[exposure].end = e.side;
          exposure = kNone;
        } else if (e.call == WindowEpochCall::wait) {
          unknown.push_back(e.side);  // no post before it in the trace
        }
        break;
      case WindowEpochCall::none:
        break;
    }
  }
  close_group();
  return by_window;
}

// Links one window's epochs: the k-th access epoch of an origin whose group holds a target with the
// k-th exposure epoch of that target whose group holds the origin.
void link_window(Epochs& epochs, LockHandovers& out) {
  using Pair = std::pair<std::int64_t, std::int64_t>;  // (origin, target)
  std::map<Pair, std::vector<Epoch*>> accesses, exposures;
  for (Epoch& a : epochs.access)
    for (const std::int64_t target : a.members) accesses[{a.opened.rank, target}].push_back(&a);
  for (Epoch& x : epochs.exposure)
    for (const std::int64_t origin : x.members) exposures[{origin, x.opened.rank}].push_back(&x);
  for (auto& [pair, list] : accesses) {
    const auto found = exposures.find(pair);
    const std::size_t paired = found == exposures.end() ? 0 : std::min(list.size(), found->second.size());
    for (std::size_t k = paired; k < list.size(); ++k) list[k]->start_linked = false;  // no post traced
    if (found == exposures.end()) continue;
    for (std::size_t k = paired; k < found->second.size(); ++k) found->second[k]->end_linked = false;
    for (std::size_t k = 0; k < paired; ++k) {
      Epoch& a = *list[k];
      Epoch& x = *found->second[k];
      // The post lets the start go; a start that returned before the post began took its epoch
      // lazily, and the complete waited instead.
      if (a.opened.end_ns >= x.opened.start_ns)
        out.handovers.push_back({x.opened, a.opened});
      else if (a.ended && a.end.end_ns >= x.opened.start_ns)
        out.handovers.push_back({x.opened, a.end});
      else
        a.start_linked = false;
      // The complete lets the wait go.
      if (x.ended && a.ended && x.end.end_ns >= a.end.start_ns)
        out.handovers.push_back({a.end, x.end, true});
      else if (x.ended)
        x.end_linked = false;
    }
  }
  // Exposures whose origins opened no access epoch to them at all.
  for (auto& [pair, list] : exposures)
    if (!accesses.contains(pair))
      for (Epoch* x : list) x->end_linked = false;
  for (const Epoch& a : epochs.access)
    if (!a.group_known || !a.start_linked) out.unlinked.push_back(a.opened);
  for (const Epoch& x : epochs.exposure)
    if (x.ended && (!x.group_known || !x.end_linked)) out.unlinked.push_back(x.end);
}

}  // namespace

LockHandovers link_window_epochs(std::vector<WindowEpochEvent> events) {
  LockHandovers out;
  std::map<WindowKey, Epochs> by_window = epochs_of(events, out.unlinked);
  for (auto& [window, epochs] : by_window) link_window(epochs, out);
  std::sort(out.handovers.begin(), out.handovers.end(), [](const LockHandover& a, const LockHandover& b) {
    return std::pair(merge_order(a.acquisition), merge_order(a.release)) <
           std::pair(merge_order(b.acquisition), merge_order(b.release));
  });
  std::sort(out.unlinked.begin(), out.unlinked.end(),
            [](const CallSide& a, const CallSide& b) { return merge_order(a) < merge_order(b); });
  out.unlinked.erase(
      std::unique(out.unlinked.begin(), out.unlinked.end(),
                  [](const CallSide& a, const CallSide& b) { return call_order(a) == call_order(b); }),
      out.unlinked.end());
  return out;
}

}  // namespace parperf::analysis
