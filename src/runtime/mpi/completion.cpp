#include "runtime/mpi/completion.hpp"

#include <algorithm>
#include <array>

namespace parperf::mpi::wrappers {
namespace {

// 0, 1, 2, ...: the completed indices of a Waitall, without filling an array on every call.
constexpr std::array<int, kTrackedRequests> kAllIndices = [] {
  std::array<int, kTrackedRequests> indices{};
  for (int i = 0; i < kTrackedRequests; ++i) indices[i] = i;
  return indices;
}();

int tracked(int count) { return std::clamp(count, 0, kTrackedRequests); }

}  // namespace

RequestSnapshot::RequestSnapshot(int count, const MPI_Request* requests) noexcept
    : count_(tracked(count)), truncated_(count > kTrackedRequests) {
  std::copy_n(requests, count_, handles_);
}

RequestSnapshot::RequestSnapshot(int count, const MPI_Fint* requests, FortranHandles) noexcept
    : count_(tracked(count)), truncated_(count > kTrackedRequests) {
  for (int i = 0; i < count_; ++i) handles_[i] = PMPI_Request_f2c(requests[i]);
}

void finish_wait_one(Call& call, const RequestSnapshot& before, bool completed,
                     const MPI_Status* status) noexcept {
  finish_completion(call, before.count(), before.handles(), completed ? 1 : 0, kAllIndices.data(),
                    completed ? status : nullptr);
}

void finish_wait_all(Call& call, const RequestSnapshot& before, bool completed,
                     const MPI_Status* statuses) noexcept {
  finish_completion(call, before.count(), before.handles(), completed ? before.count() : 0,
                    kAllIndices.data(), completed ? statuses : nullptr);
}

void finish_wait_any(Call& call, const RequestSnapshot& before, int index, int index_base,
                     const MPI_Status* status) noexcept {
  const int completed = index == MPI_UNDEFINED ? -1 : index - index_base;
  if (completed < 0 || completed >= before.count()) {
    finish_completion(call, before.count(), before.handles(), 0, nullptr, nullptr);
    return;
  }
  finish_completion(call, before.count(), before.handles(), 1, &completed, status);
}

void finish_wait_some(Call& call, const RequestSnapshot& before, int outcount, const int* indices,
                      int index_base, const MPI_Status* statuses) noexcept {
  if (outcount == MPI_UNDEFINED || outcount <= 0) {
    finish_completion(call, before.count(), before.handles(), 0, nullptr, nullptr);
    return;
  }
  if (index_base == 0 && !before.truncated()) {
    finish_completion(call, before.count(), before.handles(), outcount, indices, statuses);
    return;
  }
  // Fortran's indices count from 1, and a truncated snapshot drops indices beyond it: either way
  // the list is rebuilt, and statuses stay paired with it only if no index was dropped.
  int completed[kTrackedRequests];
  int kept = 0;
  for (int j = 0; j < outcount && kept < kTrackedRequests; ++j) {
    const int index = indices[j] - index_base;
    if (index >= 0 && index < before.count()) completed[kept++] = index;
  }
  finish_completion(call, before.count(), before.handles(), kept, completed,
                    kept == outcount ? statuses : nullptr);
}

}  // namespace parperf::mpi::wrappers
