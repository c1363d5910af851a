// The parts of a graph analysed by the processes of an MPI job (`parperf report --np K`) saying to
// each other what part_exchange.hpp says, over a communicator of their own: sends that never wait
// for their receiver (their buffers kept until MPI is done with them), receives by conversation from
// any process, and gathers to all. Every wait tests and sleeps between tests (a process that waits
// leaves the cores to those that work: the job is oversubscribed on a small machine).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <list>
#include <vector>

#include "analysis/trace/part_exchange.hpp"

namespace parperf::cli {

class MpiPartExchange final : public analysis::PartExchange {
 public:
  // Over a duplicate of `communicator` (its messages meet no other's); every process of it must
  // construct one, at the same point.
  explicit MpiPartExchange(MPI_Comm communicator);
  MpiPartExchange(const MpiPartExchange&) = delete;
  MpiPartExchange& operator=(const MpiPartExchange&) = delete;
  // Waits for its sends to complete; collective, as MPI_Comm_free is.
  ~MpiPartExchange() override;

  std::uint32_t part() const override { return part_; }
  std::uint32_t parts() const override { return parts_; }
  void send(std::uint32_t to, std::uint32_t tag, std::vector<std::uint8_t> bytes) override;
  std::vector<std::uint8_t> receive(std::uint32_t tag) override;
  std::vector<std::vector<std::uint8_t>> gather_all(const std::vector<std::uint8_t>& mine) override;

 private:
  int mpi_tag(std::uint32_t tag) const;
  void complete_sends();  // lets go of the buffers of the sends MPI is done with

  MPI_Comm communicator_ = MPI_COMM_NULL;
  std::uint32_t part_ = 0, parts_ = 1;
  int tags_ = 32768;  // MPI_TAG_UB + 1: a conversation's tag is its number modulo this
  struct Send {
    MPI_Request request = MPI_REQUEST_NULL;
    std::vector<std::uint8_t> bytes;
  };
  std::list<Send> sends_;  // not moved while MPI reads them
};

}  // namespace parperf::cli
