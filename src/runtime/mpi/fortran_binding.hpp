// What the Fortran wrappers need (mpi_fortran_wrappers.cpp, generated; Open MPI only).
//
// Open MPI's Fortran bindings (mpif.h, `use mpi`, `use mpi_f08`) call the C PMPI_ functions
// themselves, so the C wrappers never see a Fortran call: the wrappers define the Fortran entry
// points too and forward each to its Fortran profiling entry point (pmpi_send_, pmpi_send_f08_).
// Those live in libmpi_mpifh.so and libmpi_usempif08.so, which C programs do not load, so they are
// looked up at the first call rather than linked.
//
// Every Fortran argument arrives by reference: integers and handles as MPI_Fint*, buffers as their
// address, each CHARACTER argument with a hidden length after the last argument. An f08 handle
// (TYPE(MPI_Comm), ...) is a structure holding one integer: the same ABI.
#pragma once

#include <mpi.h>

#include <atomic>
#include <type_traits>

namespace parperf::mpi::fortran {

// The count arrays of the Fortran bindings go to the C functions as they are.
static_assert(std::is_same_v<MPI_Fint, int>, "MPI_Fint must be int");

// The named function of the loaded MPI libraries; ends the process with a message when there is
// none (a Fortran call cannot come from a process without the Fortran bindings).
void* resolve(const char* name) noexcept;

// A Fortran profiling entry point (pmpi_send_), resolved at its first call.
template <typename Binding>
class ProfilingEntry {
 public:
  explicit constexpr ProfilingEntry(const char* name) noexcept : name_(name) {}

  Binding* get() noexcept {
    // Racing first calls resolve the same address; storing it twice is harmless.
    Binding* entry = entry_.load(std::memory_order_acquire);
    if (entry == nullptr) {
      entry = reinterpret_cast<Binding*>(resolve(name_));
      entry_.store(entry, std::memory_order_release);
    }
    return entry;
  }

 private:
  const char* name_;
  std::atomic<Binding*> entry_{nullptr};
};

// Whether a Fortran buffer argument is MPI_IN_PLACE (the address of Open MPI's common block).
bool is_in_place(const void* buffer) noexcept;

// The f08 bindings' IERROR is OPTIONAL, and gfortran passes a null pointer for an absent one. A
// wrapper that needs the outcome of the call passes its own then.
class ErrorCode {
 public:
  explicit ErrorCode(MPI_Fint* ierror) noexcept : where_(ierror != nullptr ? ierror : &own_) {}
  ErrorCode(const ErrorCode&) = delete;
  ErrorCode& operator=(const ErrorCode&) = delete;

  MPI_Fint* get() noexcept { return where_; }
  bool succeeded() const noexcept { return *where_ == MPI_SUCCESS; }

 private:
  MPI_Fint own_ = MPI_SUCCESS;
  MPI_Fint* where_;
};

}  // namespace parperf::mpi::fortran
