#include "cli/mpi_part_exchange.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <thread>

#include "cli/mpi_sleeping_wait.hpp"

namespace parperf::cli {
namespace {

int byte_count(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error(
        "parallel trace analysis: a process's message exceeds 2 GB; analyse the run with more processes");
  return static_cast<int>(bytes);
}

}  // namespace

MpiPartExchange::MpiPartExchange(MPI_Comm communicator) {
  MPI_Comm_dup(communicator, &communicator_);
  int rank = 0, size = 1;
  MPI_Comm_rank(communicator_, &rank);
  MPI_Comm_size(communicator_, &size);
  part_ = static_cast<std::uint32_t>(rank);
  parts_ = static_cast<std::uint32_t>(size);
  int* bound = nullptr;
  int found = 0;
  MPI_Comm_get_attr(communicator_, MPI_TAG_UB, &bound, &found);
  if (found && bound && *bound > 0) tags_ = *bound < std::numeric_limits<int>::max() ? *bound + 1 : *bound;
}

MpiPartExchange::~MpiPartExchange() {
  for (Send& s : sends_) wait_sleeping(s.request);
  MPI_Comm_free(&communicator_);
}

int MpiPartExchange::mpi_tag(std::uint32_t tag) const {
  return static_cast<int>(tag % static_cast<std::uint32_t>(tags_));
}

void MpiPartExchange::complete_sends() {
  for (auto s = sends_.begin(); s != sends_.end();) {
    int done = 0;
    MPI_Test(&s->request, &done, MPI_STATUS_IGNORE);
    s = done ? sends_.erase(s) : std::next(s);
  }
}

void MpiPartExchange::send(std::uint32_t to, std::uint32_t tag, std::vector<std::uint8_t> bytes) {
  Send& s = sends_.emplace_back();
  s.bytes = std::move(bytes);
  MPI_Isend(s.bytes.data(), byte_count(s.bytes.size()), MPI_BYTE, static_cast<int>(to), mpi_tag(tag),
            communicator_, &s.request);
  complete_sends();
}

std::vector<std::uint8_t> MpiPartExchange::receive(std::uint32_t tag) {
  // A sweep by parts waits often and briefly, for a neighbour's boundary: a halo exchange's replay
  // waits once an iteration, and sleeping through each wait made it a thousand times slower than the
  // whole graph's (75 s against 72 ms for an 8-rank run in two parts). So it tests again at once: for
  // the first 100 us without yielding (a neighbour's answer comes within microseconds, and a yield
  // between tests is a system call that made each wait several times longer: an 8-rank halo
  // exchange's report by 2 processes 1.26-1.32 s against 1.10-1.14 s, by 4 processes on 2 cores
  // 2.55 against 1.78-1.96 s; 5 us was too short for 4 processes, 500 us no better), then yielding
  // the core between tests (to a process that shares it), up to 2 ms; a longer wait (for a part that
  // works alone) then sleeps between tests, from 50 us doubling to 1 ms.
  const auto start = std::chrono::steady_clock::now();
  std::chrono::microseconds pause{50};
  for (;;) {
    int found = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, mpi_tag(tag), communicator_, &found, &message, &status);
    if (found) {
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count));
      MPI_Mrecv(bytes.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE);
      complete_sends();
      return bytes;
    }
    complete_sends();
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited < std::chrono::microseconds{100}) continue;
    if (waited < std::chrono::milliseconds{2}) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds{1000});
  }
}

std::vector<std::vector<std::uint8_t>> MpiPartExchange::gather_all(const std::vector<std::uint8_t>& mine) {
  int size = byte_count(mine.size());
  std::vector<int> sizes(parts_, 0);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, communicator_, &request);
  wait_sleeping(request);
  std::vector<int> offsets(parts_, 0);
  std::size_t total = 0;
  for (std::uint32_t p = 0; p < parts_; ++p) {
    offsets[p] = byte_count(total);
    total += static_cast<std::size_t>(sizes[p]);
  }
  byte_count(total);
  std::vector<std::uint8_t> all(total);
  MPI_Iallgatherv(mine.data(), size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE,
                  communicator_, &request);
  wait_sleeping(request);
  std::vector<std::vector<std::uint8_t>> each(parts_);
  for (std::uint32_t p = 0; p < parts_; ++p)
    each[p].assign(all.begin() + offsets[p], all.begin() + offsets[p] + sizes[p]);
  return each;
}

}  // namespace parperf::cli
