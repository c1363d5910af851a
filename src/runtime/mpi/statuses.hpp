// Where PMPI writes the statuses of a measured call. The finish_*() functions read bytes and
// partners from the status, so when the program passes MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE
// the wrapper hands PMPI a status of its own instead; the program sees nothing of it.
#pragma once

#include <mpi.h>

#include "runtime/mpi/completion.hpp"

namespace parperf::mpi::wrappers {

// One status (Recv, Sendrecv, Probe, Wait, ...).
class StatusSlot {
 public:
  explicit StatusSlot(MPI_Status* program) noexcept : mpi_(program == MPI_STATUS_IGNORE ? &own_ : program) {}
  StatusSlot(const StatusSlot&) = delete;
  StatusSlot& operator=(const StatusSlot&) = delete;

  MPI_Status* for_mpi() noexcept { return mpi_; }
  const MPI_Status* for_finish() const noexcept { return mpi_; }

 private:
  MPI_Status own_;  // written by PMPI only when used
  MPI_Status* mpi_;
};

// The statuses of Waitall, Waitsome, ...: ours for up to kTrackedRequests requests; beyond that
// (more than the call tracks anyway) PMPI gets MPI_STATUSES_IGNORE and finish_*() no statuses.
class StatusArray {
 public:
  StatusArray(int count, MPI_Status* program) noexcept : mpi_(program) {
    if (program == MPI_STATUSES_IGNORE && count <= kTrackedRequests) mpi_ = own_;
  }
  StatusArray(const StatusArray&) = delete;
  StatusArray& operator=(const StatusArray&) = delete;

  MPI_Status* for_mpi() noexcept { return mpi_; }
  const MPI_Status* for_finish() const noexcept { return mpi_ == MPI_STATUSES_IGNORE ? nullptr : mpi_; }

 private:
  MPI_Status own_[kTrackedRequests];  // written by PMPI only when used
  MPI_Status* mpi_;
};

}  // namespace parperf::mpi::wrappers
