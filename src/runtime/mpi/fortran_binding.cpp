#include "runtime/mpi/fortran_binding.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

// Open MPI's Fortran MPI_IN_PLACE is a common block, named as the Fortran compiler Open MPI was
// built with names it; Open MPI's own test (OMPI_IS_FORTRAN_IN_PLACE) accepts all four spellings.
// Weak: only one of them exists.
extern "C" {
extern char mpi_fortran_in_place_ __attribute__((weak));
extern char mpi_fortran_in_place__ __attribute__((weak));
extern char mpi_fortran_in_place __attribute__((weak));
extern char MPI_FORTRAN_IN_PLACE __attribute__((weak));
}

namespace parperf::mpi::fortran {
namespace {

bool is(const void* buffer, const char* in_place) { return in_place != nullptr && buffer == in_place; }

}  // namespace

void* resolve(const char* name) noexcept {
  // RTLD_DEFAULT, not RTLD_NEXT: this library defines no pmpi_ name, so the first definition is
  // the MPI library's wherever this library stands in the load order (preloaded or linked).
  if (void* entry = dlsym(RTLD_DEFAULT, name)) return entry;
  std::fprintf(stderr, "parperf: %s, the Fortran profiling entry point of an MPI call, is not loaded\n",
               name);
  std::abort();
}

bool is_in_place(const void* buffer) noexcept {
  return is(buffer, &mpi_fortran_in_place_) || is(buffer, &mpi_fortran_in_place__) ||
         is(buffer, &mpi_fortran_in_place) || is(buffer, &MPI_FORTRAN_IN_PLACE);
}

}  // namespace parperf::mpi::fortran
