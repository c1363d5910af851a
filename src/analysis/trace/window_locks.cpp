#include "analysis/trace/window_locks.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace parperf::analysis {
namespace {

// One lock held by one thread: from its MPI_Win_lock to its MPI_Win_unlock (none when the thread
// never released it: the run ended, or the unlock was not traced).
struct Hold {
  WindowKey window;
  std::int64_t target = -1;
  bool shared = false;
  CallSide lock;
  bool released = false;
  CallSide unlock;
};

auto call_order(const CallSide& s) { return std::tuple(s.rank, s.thread, s.index); }
// Where a call is in the merged timeline (communication_calls.hpp's merge_key).
auto merge_order(const CallSide& s) { return std::tuple(s.start_ns, s.rank, s.thread, s.index); }

// Each thread's locks paired with their unlocks, in the thread's order: an unlock releases the hold
// its thread took of the same window and rank. Locks of windows the trace does not name go to
// `unknown`.
std::vector<Hold> holds_of(std::vector<WindowLockEvent>& events, std::vector<CallSide>& unknown) {
  std::sort(events.begin(), events.end(), [](const WindowLockEvent& a, const WindowLockEvent& b) {
    return call_order(a.side) < call_order(b.side);
  });
  std::vector<Hold> holds;
  std::map<std::pair<WindowKey, std::int64_t>, std::size_t> open;  // the thread's holds not released
  for (std::size_t i = 0; i < events.size(); ++i) {
    const WindowLockEvent& e = events[i];
    if (i > 0 && (e.side.rank != events[i - 1].side.rank || e.side.thread != events[i - 1].side.thread))
      open.clear();
    if (!e.known_window) {
      if (e.call == WindowLockCall::lock) unknown.push_back(e.side);
      continue;
    }
    const auto key = std::pair(e.window, e.target);
    if (e.call == WindowLockCall::lock) {
      open[key] = holds.size();
      holds.push_back({e.window, e.target, e.shared, e.side, false, {}});
    } else if (const auto it = open.find(key); it != open.end()) {
      holds[it->second].released = true;
      holds[it->second].unlock = e.side;
      open.erase(it);
    }
  }
  return holds;
}

}  // namespace

LockHandovers hand_over_window_locks(std::vector<WindowLockEvent> events) {
  LockHandovers out;
  const std::vector<Hold> holds = holds_of(events, out.unlinked);
  // The holds of each rank's lock, and of every rank's lock of a window (lock_all): looked up by
  // key, so that a run of many locks is not scanned once per lock.
  std::map<std::pair<WindowKey, std::int64_t>, std::vector<const Hold*>> by_lock;
  std::map<WindowKey, std::vector<const Hold*>> every_rank;
  for (const Hold& h : holds)
    (h.target < 0 ? every_rank[h.window] : by_lock[{h.window, h.target}]).push_back(&h);
  for (const auto& [lock, own] : by_lock) {
    // Only a rank's lock that someone took exclusively was ever waited for: shared holds do not
    // exclude each other.
    if (std::all_of(own.begin(), own.end(), [](const Hold* h) { return h->shared; })) continue;
    // The rank's lock's holds (and those of every rank's lock, taken shared), in the order granted.
    std::vector<const Hold*> chain = own;
    if (const auto all = every_rank.find(lock.first); all != every_rank.end())
      chain.insert(chain.end(), all->second.begin(), all->second.end());
    std::sort(chain.begin(), chain.end(), [](const Hold* a, const Hold* b) {
      return std::pair(a->lock.end_ns, merge_order(a->lock)) <
             std::pair(b->lock.end_ns, merge_order(b->lock));
    });
    const Hold* last_exclusive = nullptr;
    std::vector<const Hold*> shared_since;  // shared holds granted since it
    for (const Hold* h : chain) {
      std::vector<const Hold*> waited_for;
      if (!h->shared && !shared_since.empty())
        waited_for = shared_since;
      else if (last_exclusive)
        waited_for.push_back(last_exclusive);
      // Granted before a previous holder began to release it: taken lazily, or not this order.
      const bool in_order = std::all_of(waited_for.begin(), waited_for.end(), [&](const Hold* p) {
        return p->released && h->lock.end_ns >= p->unlock.start_ns;
      });
      if (in_order)
        for (const Hold* p : waited_for) out.handovers.push_back({p->unlock, h->lock});
      else
        out.unlinked.push_back(h->lock);
      if (h->shared) {
        shared_since.push_back(h);
      } else {
        last_exclusive = h;
        shared_since.clear();
      }
    }
  }
  std::sort(out.handovers.begin(), out.handovers.end(), [](const LockHandover& a, const LockHandover& b) {
    return std::pair(merge_order(a.acquisition), merge_order(a.release)) <
           std::pair(merge_order(b.acquisition), merge_order(b.release));
  });
  out.handovers.erase(std::unique(out.handovers.begin(), out.handovers.end(),
                                  [](const LockHandover& a, const LockHandover& b) {
                                    return call_order(a.acquisition) == call_order(b.acquisition) &&
                                           call_order(a.release) == call_order(b.release);
                                  }),
                      out.handovers.end());
  const auto by_call = [](const CallSide& a, const CallSide& b) { return merge_order(a) < merge_order(b); };
  std::sort(out.unlinked.begin(), out.unlinked.end(), by_call);
  out.unlinked.erase(
      std::unique(out.unlinked.begin(), out.unlinked.end(),
                  [](const CallSide& a, const CallSide& b) { return call_order(a) == call_order(b); }),
      out.unlinked.end());
  return out;
}

void hand_over_locks(std::vector<WindowLockEvent> events, LockHandovers& windows, LockHandovers& shmem) {
  const auto of_shmem = std::stable_partition(
      events.begin(), events.end(), [](const WindowLockEvent& e) { return !(e.window == kShmemLocks); });
  std::vector<WindowLockEvent> shmem_events(of_shmem, events.end());
  events.erase(of_shmem, events.end());
  windows = hand_over_window_locks(std::move(events));
  shmem = hand_over_window_locks(std::move(shmem_events));
}

}  // namespace parperf::analysis
