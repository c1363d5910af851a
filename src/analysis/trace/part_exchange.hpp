// What the parts of a graph analysed by several processes (graph_part.hpp) say to each other, and
// nothing of how: the MPI job of `parperf report --np K` carries it between processes
// (cli/mpi_part_exchange.hpp), the tests between threads. The analysis knows no MPI.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace parperf::analysis {

// A node's time, by its number in the run (GraphPart::global).
struct NodeTime {
  std::uint32_t node = 0;
  double time = 0;
};

class PartExchange {
 public:
  virtual ~PartExchange() = default;
  virtual std::uint32_t part() const = 0;
  virtual std::uint32_t parts() const = 0;

  // A new conversation, which every part opens at the same point of the same analysis: the messages
  // of one never reach another's receive (a part that finished a sweep may begin the next while
  // another still waits for the first's).
  std::uint32_t open() { return conversations_++; }

  // Sends a batch to part `to` under conversation `tag`; never waits for `to` to receive it.
  virtual void send(std::uint32_t to, std::uint32_t tag, std::vector<NodeTime> batch) = 0;
  // Waits for the next batch any part sent this one under `tag`.
  virtual std::vector<NodeTime> receive(std::uint32_t tag) = 0;
  // Every part's bytes, in part order, on every part: what a sum in the run's order needs.
  virtual std::vector<std::vector<std::uint8_t>> gather_all(const std::vector<std::uint8_t>& mine) = 0;

 private:
  std::uint32_t conversations_ = 0;
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

}  // namespace parperf::analysis
