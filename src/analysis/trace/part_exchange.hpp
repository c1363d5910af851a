// What the parts of a graph analysed by several processes (graph_part.hpp) say to each other, and
// nothing of how: the MPI job of `parperf report --np K` carries it between processes
// (cli/mpi_part_exchange.hpp), the tests between threads. The analysis knows no MPI.
#pragma once

#include <cstdint>
#include <vector>

namespace parperf::analysis {

class PartExchange {
 public:
  virtual ~PartExchange() = default;
  virtual std::uint32_t part() const = 0;
  virtual std::uint32_t parts() const = 0;

  // A new conversation, which every part opens at the same point of the same analysis: the messages
  // of one never reach another's receive (a part that finished a sweep may begin the next while
  // another still waits for the first's).
  std::uint32_t open() { return conversations_++; }

  // Sends bytes to part `to` under conversation `tag`; never waits for `to` to receive them.
  virtual void send(std::uint32_t to, std::uint32_t tag, std::vector<std::uint8_t> bytes) = 0;
  // Waits for the next bytes any part sent this one under `tag` (those of one part in the order it
  // sent them).
  virtual std::vector<std::uint8_t> receive(std::uint32_t tag) = 0;
  // Every part's bytes, in part order, on every part: what a sum in the run's order needs.
  virtual std::vector<std::vector<std::uint8_t>> gather_all(const std::vector<std::uint8_t>& mine) = 0;

 private:
  std::uint32_t conversations_ = 0;
};

}  // namespace parperf::analysis
