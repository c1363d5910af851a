#include "runtime/interval_tree.hpp"

#include <algorithm>
#include <new>

#include "runtime/private_memory.hpp"

namespace parperf::runtime {
namespace {

std::size_t slot_of(const parperf_site* site, std::int64_t value, std::uint32_t capacity) {
  auto key =
      reinterpret_cast<std::uintptr_t>(site) ^ (static_cast<std::uint64_t>(value) * 0x9e3779b97f4a7c15ull);
  key ^= key >> 29;
  key *= 0xbf58476d1ce4e5b9ull;
  key ^= key >> 32;
  return key & (capacity - 1);
}

bool insert_into_table(Node** table, std::uint32_t capacity, Node* child) {
  for (std::size_t slot = slot_of(child->site, child->value, capacity);; slot = (slot + 1) & (capacity - 1)) {
    if (!table[slot]) {
      table[slot] = child;
      return true;
    }
  }
}

// Keeps the table at most half full; rebuilt from the sibling list, which holds every child.
bool ensure_table_room(Node* parent) {
  const std::uint32_t spilled = parent->child_count + 1 - Node::kInlineChildren;
  if (parent->child_table && spilled * 2 <= parent->child_table_capacity) return true;
  const std::uint32_t capacity = parent->child_table_capacity ? parent->child_table_capacity * 2 : 16;
  auto** table = static_cast<Node**>(allocate_private(capacity * sizeof(Node*)));
  if (!table) return false;
  int skipped = 0;
  for (Node* c = parent->first_child.load(std::memory_order_relaxed); c;
       c = c->next_sibling.load(std::memory_order_relaxed)) {
    if (skipped++ < Node::kInlineChildren) continue;  // the first children live in the inline slots
    insert_into_table(table, capacity, c);
  }
  release_private(parent->child_table, parent->child_table_capacity * sizeof(Node*));
  parent->child_table = table;
  parent->child_table_capacity = capacity;
  return true;
}

}  // namespace

Node* Node::find_in_table(const parperf_site* s, std::int64_t v) const noexcept {
  for (std::size_t slot = slot_of(s, v, child_table_capacity);;
       slot = (slot + 1) & (child_table_capacity - 1)) {
    Node* child = child_table[slot];
    if (!child) return nullptr;
    if (child->site == s && child->value == v) return child;
  }
}

IterationHistogram* new_iteration_histogram() noexcept { return create_private<IterationHistogram>(); }

__attribute__((noinline)) IterationHistogram* Node::attach_iteration_histogram() noexcept {
  IterationHistogram* histogram = new_iteration_histogram();
  // Publish after construction: the profile writer loads the pointer with acquire.
  if (histogram) iteration_histogram.store(histogram, std::memory_order_release);
  return histogram;
}

Node* NodeArena::allocate() noexcept {
  if (used_ == chunk_size_) {
    const int size = chunk_size_ == 0 ? kFirstChunk : std::min(chunk_size_ * 2, kLargestChunk);
    void* memory = allocate_private(sizeof(Node) * static_cast<std::size_t>(size), alignof(Node));
    if (!memory) return nullptr;
    chunk_ = static_cast<Node*>(memory);
    chunk_size_ = size;
    used_ = 0;
  }
  return new (&chunk_[used_++]) Node();
}

Node* add_child(NodeArena& arena, Node* parent, const parperf_site* site, std::int64_t value) noexcept {
  if (parent->child_count >= Node::kInlineChildren && !ensure_table_room(parent)) return nullptr;
  Node* child = arena.allocate();
  if (!child) return nullptr;
  child->site = site;
  child->value = value;
  child->parent = parent;
  if (parent->child_count < Node::kInlineChildren) {
    parent->inline_children[parent->child_count] = child;
  } else {
    insert_into_table(parent->child_table, parent->child_table_capacity, child);
  }
  ++parent->child_count;
  // Publish last: the writer follows these links with acquire loads.
  if (parent->last_child)
    parent->last_child->next_sibling.store(child, std::memory_order_release);
  else
    parent->first_child.store(child, std::memory_order_release);
  parent->last_child = child;
  return child;
}

}  // namespace parperf::runtime
