#include "runtime/call_path_table.hpp"

#include <bit>

#include "runtime/private_memory.hpp"

namespace parperf::runtime {
namespace {

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 29;
  return h;
}

}  // namespace

std::uint32_t CallPathTable::find_or_insert(std::uint32_t parent, std::uintptr_t address, std::uint32_t frame,
                                            const Node* interval) noexcept {
  const std::uint32_t mask = 2 * capacity - 1;
  std::uint64_t h = mix(address * 0x9e3779b97f4a7c15ull ^ parent ^ (std::uint64_t{frame} << 32) ^
                        reinterpret_cast<std::uintptr_t>(interval) * 31);
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
    n.frame = frame;
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
  for (std::uint32_t i = from; i-- > 0;) {
    node = find_or_insert(node, frames[i], i == 0 ? 0 : 1, interval);
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
