// A sequence that grows by chunks of fixed size rather than by doubling one array: only its last
// chunk grows by doubling (what it holds moves only there), so that growing never holds an old and a
// new copy of more than one chunk at once (a doubling array does, up to three times its contents, at
// the moment it grows), and a short sequence takes no more than a short array. For the analysis's
// large results that are made once and then read in order or by index: the matched messages
// (messages.hpp), the graph's edges as they are linked, the clock repair's anchors (repair_anchors.hpp).
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
  const T& back() const { return (*this)[size_ - 1]; }

  void push_back(T value) {
    if ((size_ & (kPerChunk - 1)) == 0) {
      // A full chunk's successor is reserved whole; the first grows with the sequence.
      chunks_.emplace_back();
      if (size_ > 0) chunks_.back().reserve(kPerChunk);
    }
    chunks_.back().push_back(std::move(value));
    ++size_;
  }

  iterator begin() { return {this, 0}; }
  iterator end() { return {this, size_}; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  // What its chunks hold, reserved or not (for the benchmarks' accounts and the tests).
  std::size_t capacity_bytes() const {
    std::size_t bytes = 0;
    for (const std::vector<T>& chunk : chunks_) bytes += chunk.capacity() * sizeof(T);
    return bytes;
  }

  bool operator==(const ChunkedVector& other) const { return chunks_ == other.chunks_; }

 private:
  // Each of kPerChunk (reserved so, but the first, which grew to it), all full but the last.
  std::vector<std::vector<T>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace parperf::analysis
