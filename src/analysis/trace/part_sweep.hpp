// A walk of a graph part's order (graph_part.hpp) that computes each node's time from the times of
// the nodes it depends on, as the clock repair and the replay do, done by every part at once: a node
// that other parts' nodes depend on has its time sent to them once computed, and a ghost's time is
// waited for when the walk reaches it. Before waiting, a part sends every time it has computed, so
// the part holding the earliest node (in the run's order) that anyone waits for always has what it
// needs: the walk never waits for ever. Times go in batches, each part's in its walk's order.
//
// Passes that sweep the whole graph (one process) use NoPartSweep, which compiles to nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct NoPartSweep {
  static constexpr bool kParts = false;
  bool is_ghost(std::uint32_t) const { return false; }
  bool is_run_hub(std::uint32_t) const { return false; }
  double ghost_time(std::uint32_t) { return 0; }
  void computed(std::uint32_t, double) {}
};

class PartSweep {
 public:
  static constexpr bool kParts = true;
  // A batch holds this many times at most (12 bytes each: the node's number in the run, its time):
  // large enough that a halo exchange's boundary goes in a few messages, small enough that a part
  // waiting for one gets it soon.
  static constexpr std::size_t kBatch = 4096;
  static constexpr std::size_t kNodeTime = sizeof(std::uint32_t) + sizeof(double);

  PartSweep(const GraphPart& part, PartExchange& exchange)
      : part_(part),
        exchange_(exchange),
        tag_(exchange.open()),
        arrived_(part.graph.nodes() - part.first_ghost, 0),
        ghost_time_(arrived_.size(), 0),
        outbox_(part.parts) {}
  PartSweep(const PartSweep&) = delete;
  PartSweep& operator=(const PartSweep&) = delete;

  bool is_ghost(std::uint32_t k) const { return part_.is_ghost(k); }
  // Whether part node k stands for a hub of the run (its own or a ghost).
  bool is_run_hub(std::uint32_t k) const { return part_.global(k) >= part_.run_first_hub; }

  // Whether ghost k's time has come (without waiting).
  bool arrived(std::uint32_t k) const { return arrived_[k - part_.first_ghost] != 0; }

  // The time its owner computed for ghost k: sent already, or waited for, having sent first
  // everything this part computed.
  double ghost_time(std::uint32_t k) {
    const std::uint32_t g = k - part_.first_ghost;
    if (!arrived_[g]) flush();
    while (!arrived_[g]) receive_one();
    return ghost_time_[g];
  }

  // Waits for the next batch of times, having sent everything this part computed (a walk that may
  // take its nodes in any order waits so for whichever ghost comes next).
  void wait_for_any() {
    flush();
    receive_one();
  }

  // Node k's time is known: for the parts that read it.
  void computed(std::uint32_t k, double time) {
    const std::uint32_t r = part_.read_elsewhere.rank(k);
    if (r == RankBitmap::kUnmarked) return;
    const std::uint32_t node = part_.global(k);
    for (std::uint32_t i = part_.readers_begin[r]; i < part_.readers_begin[r + 1]; ++i) {
      std::vector<std::uint8_t>& box = outbox_[part_.readers[i]];
      const std::size_t at = box.size();
      box.resize(at + kNodeTime);
      std::memcpy(box.data() + at, &node, sizeof node);
      std::memcpy(box.data() + at + sizeof node, &time, sizeof time);
      if (box.size() == kBatch * kNodeTime) send(part_.readers[i]);
    }
  }

  // The walk is done: what is left goes out.
  void finish() { flush(); }

 private:
  // One batch of times, whichever part sent it: its ghosts' times arrived.
  void receive_one() {
    const std::vector<std::uint8_t> batch = exchange_.receive(tag_);
    if (batch.size() % kNodeTime != 0) throw std::logic_error("a part sent a batch of times cut short");
    for (std::size_t at = 0; at < batch.size(); at += kNodeTime) {
      std::uint32_t node;
      std::memcpy(&node, batch.data() + at, sizeof node);
      const std::uint32_t local = part_.local(node);
      if (local == kNoNode || !part_.is_ghost(local))
        throw std::logic_error("a part was sent the time of a node none of its nodes depends on");
      arrived_[local - part_.first_ghost] = 1;
      std::memcpy(&ghost_time_[local - part_.first_ghost], batch.data() + at + sizeof node, sizeof(double));
    }
  }
  void send(std::uint32_t to) {
    std::vector<std::uint8_t> batch;
    batch.swap(outbox_[to]);
    exchange_.send(to, tag_, std::move(batch));
  }
  void flush() {
    for (std::uint32_t to = 0; to < outbox_.size(); ++to)
      if (!outbox_[to].empty()) send(to);
  }

  const GraphPart& part_;
  PartExchange& exchange_;
  std::uint32_t tag_;
  std::vector<std::uint8_t> arrived_;  // per ghost
  std::vector<double> ghost_time_;
  std::vector<std::vector<std::uint8_t>> outbox_;  // per part
};

}  // namespace parperf::analysis
