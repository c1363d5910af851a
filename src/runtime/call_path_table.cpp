#include "runtime/call_path_table.hpp"

#include <bit>

#include "runtime/private_memory.hpp"

namespace parperf::runtime {
std::uint32_t CallPathTable::find_or_insert(std::uint32_t hash, std::uint32_t parent, std::uintptr_t address,
                                            std::uint32_t frame, const Node* interval) noexcept {
  const std::uint32_t mask = 2 * capacity - 1;
  std::uint32_t h = hash;
  for (std::uint32_t probes = 0; probes <= mask; ++probes, ++h) {
    std::uint32_t& slot = slots[h & mask];
    if (slot != 0) {
      const CallPathNode& n = nodes[slot - 1];
      if (n.address == address && n.parent == parent && n.interval == interval && n.frame == frame)
        return slot - 1;
      continue;
    }
    const std::uint32_t index = node_count.load(std::memory_order_relaxed);
    if (index >= capacity) return kNoNode;
    CallPathNode& n = nodes[index];
    n.address = address;
    n.interval = interval;
    n.parent = parent;
    n.frame = frame & 1u;
    n.path_hash = hash & call_path_hash::kBits;
    node_count.store(index + 1, std::memory_order_release);
    slot = index + 1;
    return index;
  }
  return kNoNode;
}

std::uint32_t CallPathTable::add_sample(const std::uintptr_t* frames, std::uint32_t count,
                                        const Node* interval, std::uint64_t weight) noexcept {
  return add_sample_from(frames, count, kNoNode, interval, weight, nullptr);
}

std::uint32_t CallPathTable::add_sample_from(const std::uintptr_t* frames, std::uint32_t from,
                                             std::uint32_t from_node, const Node* interval,
                                             std::uint64_t weight, std::uint32_t* path_nodes) noexcept {
  samples.add(weight);
  std::uint32_t node = from_node;
  std::uint32_t hash = node == kNoNode ? call_path_hash::of_root(interval) : nodes[node].path_hash;
  for (std::uint32_t i = from; i-- > 0;) {
    const std::uint32_t frame = i == 0 ? 0 : 1;
    hash = call_path_hash::of_child(hash, frames[i], frame);
    node = find_or_insert(hash, node, frames[i], frame, interval);
    if (node == kNoNode) {
      dropped.add(weight);
      return kNoNode;
    }
    if (path_nodes) path_nodes[i] = node;
  }
  if (node != kNoNode) nodes[node].samples.add(weight);
  return node;
}

CallPathTable* create_call_path_table(std::uint32_t capacity) noexcept {
  capacity = std::bit_ceil(capacity);
  auto* table = create_private<CallPathTable>();
  if (!table) return nullptr;
  table->nodes = static_cast<CallPathNode*>(allocate_private(capacity * sizeof(CallPathNode), 64));
  table->slots = static_cast<std::uint32_t*>(allocate_private(2 * capacity * sizeof(std::uint32_t), 64));
  if (!table->nodes || !table->slots) return nullptr;
  table->capacity = capacity;
  return table;
}

}  // namespace parperf::runtime
