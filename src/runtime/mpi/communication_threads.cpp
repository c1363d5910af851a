#include "runtime/mpi/communication_threads.hpp"

#include <atomic>

#include "runtime/collector_api.h"

namespace parperf::mpi {
namespace {

// File name prefixes of the libraries of the MPI stack and of the network layers below it.
constexpr const char* kLibraries[] = {"libopen-pal", "libopen-rte", "libmpi", "libpmix",   "libevent",
                                      "libucs",      "libucp",      "libuct", "libfabric", "libpsm",
                                      "libhwloc",    "libprrte",    "mca_",   nullptr};
std::atomic<bool> g_named{false};

}  // namespace

void name_communication_threads() noexcept {
  if (!g_named.exchange(true)) parperf_collector_foreign_threads(kLibraries);
}

}  // namespace parperf::mpi
