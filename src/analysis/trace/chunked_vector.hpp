// A sequence that grows by chunks of fixed size rather than by doubling one array: what it holds is
// never moved, and growing never holds an old and a new copy at once (a doubling array does, up to
// three times its contents, at the moment it grows). For the analysis's large results that are made
// once and then read in order: the matched messages (messages.hpp).
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <utility>
#include <vector>

namespace parperf::analysis {

template <class T>
class ChunkedVector {
  // Chunks of about 64 KiB: few enough allocations to cost nothing beside the work of filling them,
  // a power of two of elements so that an index splits by shifting.
  static constexpr std::size_t kPerChunk = std::bit_floor(std::max<std::size_t>(1, (64u << 10) / sizeof(T)));
  static constexpr unsigned kShift = std::countr_zero(kPerChunk);

  template <class Owner, class Value>
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = Value*;
    using reference = Value&;
    Iterator() = default;
    Iterator(Owner* owner, std::size_t at) : owner_(owner), at_(at) {}
    reference operator*() const { return (*owner_)[at_]; }
    pointer operator->() const { return &(*owner_)[at_]; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const Iterator& other) const { return at_ == other.at_; }

   private:
    Owner* owner_ = nullptr;
    std::size_t at_ = 0;
  };

 public:
  using value_type = T;
  using iterator = Iterator<ChunkedVector, T>;
  using const_iterator = Iterator<const ChunkedVector, const T>;

  ChunkedVector() = default;
  ChunkedVector(std::initializer_list<T> values) {
    for (const T& v : values) push_back(v);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return chunks_[i >> kShift][i & (kPerChunk - 1)]; }
  const T& operator[](std::size_t i) const { return chunks_[i >> kShift][i & (kPerChunk - 1)]; }
  T& front() { return (*this)[0]; }
  T& back() { return (*this)[size_ - 1]; }

  void push_back(T value) {
    if ((size_ & (kPerChunk - 1)) == 0) chunks_.emplace_back().reserve(kPerChunk);
    chunks_.back().push_back(std::move(value));
    ++size_;
  }

  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  bool operator==(const ChunkedVector& other) const { return chunks_ == other.chunks_; }

 private:
  std::vector<std::vector<T>> chunks_;  // each reserved to kPerChunk, all full but the last
  std::size_t size_ = 0;
};

}  // namespace parperf::analysis
