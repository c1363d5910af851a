// Figures of a run analysed by parts (graph_part.hpp) that combine every part's: each part gives
// its own, every part gets the run's, the same on every part (and the same as the whole graph's:
// what is summed in an order is gathered and summed in that order by the caller).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

// Plain values one after the other, read back in the same order: what the parts send each other
// (and the processes of `--np K` each other of their trace files: cli/trace_parts_analysis.cpp). A
// reader never reads past the bytes it was given.
class PartBytes {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const std::size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &value, sizeof(T));
  }
  template <class T>
  void put_all(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(static_cast<std::uint64_t>(values.size()));
    const std::size_t at = bytes_.size(), size = values.size() * sizeof(T);
    bytes_.resize(at + size);
    if (size > 0) std::memcpy(bytes_.data() + at, values.data(), size);
  }
  void put_text(const std::string& text) {
    put(static_cast<std::uint64_t>(text.size()));
    const std::size_t at = bytes_.size();
    bytes_.resize(at + text.size());
    if (!text.empty()) std::memcpy(bytes_.data() + at, text.data(), text.size());
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::vector<std::uint8_t> release() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};
class PartBytesReader {
 public:
  explicit PartBytesReader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  bool done() const { return at_ == bytes_.size(); }
  template <class T>
  T take() {
    static_assert(std::is_trivially_copyable_v<T>);
    if (bytes_.size() - at_ < sizeof(T)) throw std::logic_error("a part sent its values cut short");
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::string take_text() {
    const auto n = take<std::uint64_t>();
    if (n > bytes_.size() - at_) throw std::logic_error("a part sent its values cut short");
    std::string text(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
    return text;
  }
  template <class T>
  std::vector<T> take_all() {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto n = take<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw std::logic_error("a part sent its values cut short");
    std::vector<T> values(n);
    if (n > 0) std::memcpy(values.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return values;
  }

 private:
  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

// Every part's `mine`, in part order, on every part: a value of plain bytes (counts, times).
template <class T>
std::vector<T> gather_each(PartExchange& exchange, const T& mine) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<std::uint8_t> bytes(sizeof(T));
  std::memcpy(bytes.data(), &mine, sizeof(T));
  std::vector<T> all;
  for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes)) {
    if (each.size() != sizeof(T)) throw std::logic_error("a part sent a value of another size");
    std::memcpy(&all.emplace_back(), each.data(), sizeof(T));
  }
  return all;
}

// The parts' figures combined, the same on every part.
inline bool any_part(PartExchange& exchange, bool mine) {
  for (const std::uint8_t v : gather_each<std::uint8_t>(exchange, mine ? 1 : 0))
    if (v) return true;
  return false;
}
inline std::uint64_t sum_of_parts(PartExchange& exchange, std::uint64_t mine) {
  std::uint64_t sum = 0;
  for (const std::uint64_t v : gather_each(exchange, mine)) sum += v;
  return sum;
}
// The largest (exact, whatever the order: no sum).
inline double max_of_parts(PartExchange& exchange, double mine) {
  double largest = mine;
  for (const double v : gather_each(exchange, mine)) largest = v > largest ? v : largest;
  return largest;
}

// One round in which every part sends every other part `out[p]` (empty or not): what the others sent
// this one, in the order they came.
inline std::vector<std::vector<std::uint8_t>> exchange_with_every_part(PartExchange& exchange,
                                                                       const std::vector<PartBytes>& out) {
  const std::uint32_t tag = exchange.open();
  for (std::uint32_t p = 0; p < exchange.parts(); ++p)
    if (p != exchange.part()) exchange.send(p, tag, out[p].bytes());
  std::vector<std::vector<std::uint8_t>> in;
  for (std::uint32_t p = 1; p < exchange.parts(); ++p) in.push_back(exchange.receive(tag));
  return in;
}

// `add_mine(state)` done by part 0, then by part 1 on its result, and so on in part order: a sum in
// the run's order over parts that hold consecutive pieces of it, as the whole graph adds it up. The
// last part's result, on every part. `state` is bytes (what the parts hand on) ...
template <class AddMine>
std::vector<std::uint8_t> in_part_order(PartExchange& exchange, std::vector<std::uint8_t> state,
                                        const AddMine& add_mine) {
  const std::uint32_t tag = exchange.open();
  const std::uint32_t part = exchange.part(), parts = exchange.parts();
  if (part > 0) state = exchange.receive(tag);
  add_mine(state);
  if (part + 1 < parts) exchange.send(part + 1, tag, state);
  return exchange.gather_all(part + 1 == parts ? state : std::vector<std::uint8_t>{}).back();
}
// ... or doubles, as many on every part.
template <class AddMine>
std::vector<double> in_part_order(PartExchange& exchange, std::vector<double> values,
                                  const AddMine& add_mine) {
  const std::size_t size = values.size() * sizeof(double);
  const auto decode = [&](const std::vector<std::uint8_t>& bytes) {
    if (bytes.size() != size) throw std::logic_error("a part sent its sums cut short");
    if (size > 0) std::memcpy(values.data(), bytes.data(), size);
  };
  std::vector<std::uint8_t> bytes(size);
  if (size > 0) std::memcpy(bytes.data(), values.data(), size);
  decode(in_part_order(exchange, std::move(bytes), [&](std::vector<std::uint8_t>& state) {
    decode(state);
    add_mine(values);
    if (size > 0) std::memcpy(state.data(), values.data(), size);
  }));
  return values;
}

// The k-th smallest (from 0) of every part's values together: exact, without gathering them (an
// edge's observation each), by halving the range of the doubles' ordered bit patterns, a count of
// every part's at or below the middle a round (64 rounds). k must be below the values' total.
inline double kth_smallest_of_parts(PartExchange& exchange, const std::vector<double>& values,
                                    std::uint64_t k) {
  // Ordered as the doubles are: negatives' bits reversed below the positives' with the sign set.
  const auto ordered = [](double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
  };
  std::vector<std::uint64_t> keys(values.size());
  std::transform(values.begin(), values.end(), keys.begin(), ordered);
  std::uint64_t low = 0, high = ~std::uint64_t{0};  // the smallest key with more than k at or below it
  while (low < high) {
    const std::uint64_t middle = low + (high - low) / 2;
    const auto at_or_below = static_cast<std::uint64_t>(
        std::count_if(keys.begin(), keys.end(), [&](std::uint64_t key) { return key <= middle; }));
    if (sum_of_parts(exchange, at_or_below) > k)
      high = middle;
    else
      low = middle + 1;
  }
  const std::uint64_t bits = low >> 63 ? low & ~(std::uint64_t{1} << 63) : ~low;
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace parperf::analysis
