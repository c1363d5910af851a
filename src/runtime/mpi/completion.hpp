// What the Wait*/Test*/Start* wrappers add to measure.hpp: the request handles as they were before
// the call (MPI overwrites the completed ones with MPI_REQUEST_NULL), and the translation of the
// call's outcome (flag, index, indices) into finish_completion()'s list of completed requests.
//
// A call tracks its first kTrackedRequests requests (docs/mpi.md): the snapshot lives on the
// wrapper's stack, so nothing is allocated on a call, and requests beyond it complete unmeasured.
#pragma once

#include <mpi.h>

#include "runtime/mpi/measure.hpp"

namespace parperf::mpi::wrappers {

inline constexpr int kTrackedRequests = 64;

// Tag: the handles are Fortran integers, converted with MPI_Request_f2c. (A tag rather than an
// overload on the pointer type: MPICH's MPI_Request and MPI_Fint are both int.)
struct FortranHandles {};
inline constexpr FortranHandles fortran_handles{};

class RequestSnapshot {
 public:
  RequestSnapshot(int count, const MPI_Request* requests) noexcept;
  RequestSnapshot(int count, const MPI_Fint* requests, FortranHandles) noexcept;
  RequestSnapshot(const RequestSnapshot&) = delete;
  RequestSnapshot& operator=(const RequestSnapshot&) = delete;

  // The requests tracked: the call's first min(count, kTrackedRequests).
  int count() const noexcept { return count_; }
  const MPI_Request* handles() const noexcept { return handles_; }
  // Whether the call had more requests than are tracked.
  bool truncated() const noexcept { return truncated_; }

 private:
  int count_ = 0;
  bool truncated_ = false;
  MPI_Request handles_[kTrackedRequests];
};

// Wait / Test: the request completed (Wait: always; Test: when flag).
void finish_wait_one(Call& call, const RequestSnapshot& before, bool completed,
                     const MPI_Status* status) noexcept;
// Waitall / Testall: all requests completed (Testall: when flag). statuses[i] belongs to request i.
void finish_wait_all(Call& call, const RequestSnapshot& before, bool completed,
                     const MPI_Status* statuses) noexcept;
// Waitany / Testany: request `index` completed, unless it is MPI_UNDEFINED. Fortran counts from
// index_base 1, C from 0.
void finish_wait_any(Call& call, const RequestSnapshot& before, int index, int index_base,
                     const MPI_Status* status) noexcept;
// Waitsome / Testsome: the requests indices[0..outcount) completed (outcount MPI_UNDEFINED: none);
// statuses[j] belongs to indices[j].
void finish_wait_some(Call& call, const RequestSnapshot& before, int outcount, const int* indices,
                      int index_base, const MPI_Status* statuses) noexcept;

}  // namespace parperf::mpi::wrappers
