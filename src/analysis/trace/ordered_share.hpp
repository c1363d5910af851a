// Items read on two threads and taken in their order on one: how the activity graph's ranks are read
// while the matching, which runs beside the reading, is done before it (analyse_traces). The owner
// prepares, then reads and commits item after item; a helper that comes while it does reads items
// ahead of it, which the owner then commits in turn. At most `window` items are read and not yet
// committed (each holds memory until it is: a rank's points), counted from the next to commit.
//
// The owner reads an item itself when no helper has it; when the helper has the next one, the owner
// reads the first free item of the window meanwhile rather than wait. Each item is read once, by
// either thread; commits are the owner's, in order, so that what they build is the same whoever read
// what. An item whose reading failed has its error rethrown when its turn to be committed comes:
// the error of the first failing item, as reading them in turn would give.
//
// A helper that comes before the owner began returns at once (the owner may run after it on the same
// thread, when no second thread could be had); one that comes while the owner prepares waits for it;
// one that comes later helps until no item is left to read. Whatever ends the owner's part (its
// error too) lets the helper go.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>

namespace parperf::analysis {

class OrderedShare {
 public:
  OrderedShare(std::size_t count, std::size_t window)
      : count_(count), window_(std::max<std::size_t>(window, 1)), items_(std::make_unique<Item[]>(count)) {}
  OrderedShare(const OrderedShare&) = delete;
  OrderedShare& operator=(const OrderedShare&) = delete;

  // The owner's part: prepare(), then read(i) and commit(i) for every item, commits in order.
  template <class Prepare, class Read, class Commit>
  void own(Prepare prepare, Read read, Commit commit) {
    const Finished finished(*this);
    set_phase(Phase::preparing);
    prepare();
    set_phase(Phase::sharing);
    for (std::size_t next = 0; next < count_; ++next) {
      if (claim(next)) {
        read_item(next, read);
      } else if (items_[next].state.load(std::memory_order_acquire) != State::read) {
        // The helper is reading it: read another meanwhile, then wait for it. (One read already,
        // by either thread, is committed at once.)
        for (std::size_t i = next + 1; i < std::min(count_, next + window_); ++i)
          if (claim(i)) {
            read_item(i, read);
            break;
          }
        wait_until_read(next);
      }
      if (items_[next].error) std::rethrow_exception(items_[next].error);
      commit(next);
      committed_.store(next + 1, std::memory_order_release);
      committed_.notify_all();
    }
  }

  // A helper's part: read(i) for items ahead of the owner, until none is left to read.
  template <class Read>
  void help(Read read) {
    Phase phase = phase_.load(std::memory_order_acquire);
    if (phase == Phase::not_begun) return;
    while (phase == Phase::preparing) {
      phase_.wait(phase, std::memory_order_acquire);
      phase = phase_.load(std::memory_order_acquire);
    }
    if (phase == Phase::finished) return;
    for (;;) {
      const std::size_t committed = committed_.load(std::memory_order_acquire);
      if (committed >= count_) return;
      // Nothing at or past committed + window is taken: neither thread reads beyond the window.
      const std::size_t end = std::min(count_, committed + window_);
      bool took = false;
      for (std::size_t i = committed; i < end && !took; ++i)
        if (claim(i)) {
          read_item(i, read);
          helped_.fetch_add(1, std::memory_order_relaxed);
          took = true;
        }
      if (took) continue;
      if (end == count_) return;                              // every item is read or being read
      committed_.wait(committed, std::memory_order_acquire);  // for the window to move on
    }
  }

  // Changes the window: only in `own`'s prepare (a helper reads it once the sharing begins).
  void set_window(std::size_t window) { window_ = std::max<std::size_t>(window, 1); }

  // Items the helper read: for the benchmarks and tests.
  std::size_t helped() const { return helped_.load(); }

 private:
  enum class Phase { not_begun, preparing, sharing, finished };
  enum class State { unread, reading, read };
  struct Item {
    std::atomic<State> state{State::unread};
    std::exception_ptr error;
  };
  // Marks the owner's part over however it ends, and wakes a helper waiting for either change.
  class Finished {
   public:
    explicit Finished(OrderedShare& share) : share_(share) {}
    Finished(const Finished&) = delete;
    Finished& operator=(const Finished&) = delete;
    // Every item counted committed before the phase says finished: a helper woken by the phase
    // must not find the commits still at 0 and read an item after the owner failed.
    ~Finished() {
      share_.committed_.store(share_.count_, std::memory_order_release);
      share_.committed_.notify_all();
      share_.set_phase(Phase::finished);
    }

   private:
    OrderedShare& share_;
  };

  void set_phase(Phase phase) {
    phase_.store(phase, std::memory_order_release);
    phase_.notify_all();
  }
  bool claim(std::size_t i) {
    State unread = State::unread;
    return items_[i].state.compare_exchange_strong(unread, State::reading, std::memory_order_acq_rel);
  }
  template <class Read>
  void read_item(std::size_t i, Read& read) {
    try {
      read(i);
    } catch (...) {
      items_[i].error = std::current_exception();
    }
    items_[i].state.store(State::read, std::memory_order_release);
    items_[i].state.notify_all();
  }
  void wait_until_read(std::size_t i) {
    for (State s = items_[i].state.load(std::memory_order_acquire); s != State::read;
         s = items_[i].state.load(std::memory_order_acquire))
      items_[i].state.wait(s, std::memory_order_acquire);
  }

  const std::size_t count_;
  std::size_t window_;
  std::unique_ptr<Item[]> items_;
  std::atomic<Phase> phase_{Phase::not_begun};
  std::atomic<std::size_t> committed_{0};
  std::atomic<std::size_t> helped_{0};
};

}  // namespace parperf::analysis
