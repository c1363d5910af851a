// One thread's sampled call paths: a tree of code addresses under the interval the thread was in,
// with the number of samples that ended at each node. Its size is set by the distinct call paths,
// not by the samples: a run ten times longer adds counts, not nodes.
//
// Written only by the thread's own sample handler, so insertion needs no atomic read-modify-write;
// the profile writer (another thread, or this one) reads it concurrently: a node is complete before
// the release store of `node_count` publishes it, and counts are relaxed atomics. Fixed capacity,
// taken in private memory when the thread starts sampling: a full table counts the samples it
// cannot hold as dropped, it never grows inside the handler.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "runtime/relaxed.hpp"

namespace parperf::runtime {

struct Node;

struct CallPathNode {
  std::uintptr_t address = 0;  // absolute
  const Node* interval = nullptr;
  std::uint32_t parent = 0xffffffffu;
  std::uint32_t frame : 1 = 0;  // 0: the interrupted instruction, 1: a return address
  // A hash of the path from the root to this node (call_path_hash below): where the node's
  // children are placed in the table, from their own address and this, not from this node's index.
  std::uint32_t path_hash : 31 = 0;
  Relaxed<std::uint64_t> samples;
};

struct CallPathTable {
  static constexpr std::uint32_t kNoNode = 0xffffffffu;

  CallPathNode* nodes = nullptr;
  std::uint32_t* slots = nullptr;  // open addressing: node index + 1, 0 = empty
  std::uint32_t capacity = 0;      // nodes; slots has twice as many (a power of two)
  std::atomic<std::uint32_t> node_count{0};
  Relaxed<std::uint64_t> samples;  // taken
  Relaxed<std::uint64_t> dropped;  // taken but not recorded: the table was full
  // Taken while the thread was in its model's start-up or shut-down (collector_api.h): counted apart,
  // not in `samples`, not walked.
  Relaxed<std::uint64_t> start_up;
  Relaxed<std::uint64_t> shut_down;

  // Adds `weight` samples of the path frames[count-1] (outermost) .. frames[0] (the interrupted
  // instruction) under `interval`. Async-signal-safe; only the owning thread calls it. Returns the
  // index of the node the path ends at (stable: the table only grows), kNoNode when it was dropped.
  std::uint32_t add_sample(const std::uintptr_t* frames, std::uint32_t count, const Node* interval,
                           std::uint64_t weight = 1) noexcept;

  // The same when the node of the path's outer part frames[from..count-1] is known already (`from_node`,
  // from an earlier sample under the same interval; from ≥ 1): only frames[from-1..0] are looked up.
  // `from` = count: nothing is known. `path_nodes`, when given, gets the node of frames[i..] for i < from.
  std::uint32_t add_sample_from(const std::uintptr_t* frames, std::uint32_t from, std::uint32_t from_node,
                                const Node* interval, std::uint64_t weight,
                                std::uint32_t* path_nodes) noexcept;

 private:
  std::uint32_t find_or_insert(std::uint32_t hash, std::uint32_t parent, std::uintptr_t address,
                               std::uint32_t frame, const Node* interval) noexcept;
};

// Where a path's nodes are placed: a hash of the path from its root (the interval) to the node, each
// node's from its parent's and its own address. It depends on the frames alone, not on the nodes
// found, so the lookups of a path's frames do not wait for one another: each slot can be read as
// soon as the frames are known, where a hash of the parent's index made each lookup wait for the
// one before (a chain of dependent loads along all 64 frames of a deep path).
namespace call_path_hash {
constexpr std::uint32_t kBits = 0x7fffffffu;
inline std::uint32_t of_root(const Node* interval) noexcept {
  return static_cast<std::uint32_t>((reinterpret_cast<std::uintptr_t>(interval) * 0x9e3779b97f4a7c15ull) >>
                                    33);
}
inline std::uint32_t of_child(std::uint32_t parent_hash, std::uintptr_t address,
                              std::uint32_t frame) noexcept {
  // The high half of the product depends on every bit of the address and of the parent's hash.
  return static_cast<std::uint32_t>(
      ((address ^ (std::uint64_t{parent_hash} << 1 | frame)) * 0xbf58476d1ce4e5b9ull) >> 33);
}
}  // namespace call_path_hash

// A table of `capacity` nodes in private memory (zeroed: empty), or null.
CallPathTable* create_call_path_table(std::uint32_t capacity) noexcept;

}  // namespace parperf::runtime
