// The activity graph's nodes in an order in which each comes after everything it depends on
// (ActivityGraph::order), kept as runs of consecutive nodes: the order places a location's nodes one
// after the other until one waits for another location, so that a halo exchange's order is a run
// every few nodes. 8 bytes a run, where a node number each took 4 bytes a node (6.6 an event, a sixth
// of the graph). Read in order, as every pass that follows it does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace parperf::analysis {

class NodeOrder {
  struct Run {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    friend bool operator==(const Run&, const Run&) = default;
  };

 public:
  class Iterator {
   public:
    // A node number is made, not stored: a forward iterator by C++20's concept, an input iterator by
    // the older requirements (its reference is a value).
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::input_iterator_tag;
    using value_type = std::uint32_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::uint32_t*;
    using reference = std::uint32_t;
    Iterator() = default;
    Iterator(const Run* run, std::uint32_t offset) : run_(run), offset_(offset) {}
    std::uint32_t operator*() const { return run_->first + offset_; }
    Iterator& operator++() {
      if (++offset_ == run_->count) {
        ++run_;
        offset_ = 0;
      }
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    friend bool operator==(const Iterator&, const Iterator&) = default;

   private:
    const Run* run_ = nullptr;
    std::uint32_t offset_ = 0;
  };

  NodeOrder() = default;
  explicit NodeOrder(const std::vector<std::uint32_t>& nodes) {
    for (const std::uint32_t k : nodes) push_back(k);
  }

  void push_back(std::uint32_t node) {
    if (!runs_.empty() && runs_.back().first + runs_.back().count == node)
      ++runs_.back().count;
    else
      runs_.push_back({node, 1});
    ++size_;
  }
  void clear() {
    runs_.clear();
    size_ = 0;
  }
  // Lets go of the slack of the runs' growth.
  void shrink_to_fit() { runs_.shrink_to_fit(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t runs() const { return runs_.size(); }
  // f(first, count) for each run of consecutive nodes, in order: for a pass that works out once a run
  // what its nodes share (their location, where a run does not pass the end of one).
  template <class F>
  void for_each_run(F f) const {
    for (const Run& run : runs_) f(run.first, run.count);
  }
  Iterator begin() const { return {runs_.data(), 0}; }
  Iterator end() const { return {runs_.data() + runs_.size(), 0}; }
  // What it holds, for the benchmarks' accounts.
  std::size_t capacity_bytes() const { return runs_.capacity() * sizeof(Run); }

  friend bool operator==(const NodeOrder&, const NodeOrder&) = default;

 private:
  std::vector<Run> runs_;
  std::size_t size_ = 0;
};

}  // namespace parperf::analysis
