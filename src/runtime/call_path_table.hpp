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
  std::uint32_t frame = 0;  // 0: the interrupted instruction, 1: a return address
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
  std::uint32_t find_or_insert(std::uint32_t parent, std::uintptr_t address, std::uint32_t frame,
                               const Node* interval) noexcept;
};

// A table of `capacity` nodes in private memory (zeroed: empty), or null.
CallPathTable* create_call_path_table(std::uint32_t capacity) noexcept;

}  // namespace parperf::runtime
