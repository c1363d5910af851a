// The process's MPI identity and network figures, and the profile's `mpi` section that states them
// with the clock exchanges (clock_exchanges.hpp) and the communicators' collective samples
// (communicator_samples.hpp). The core writes the section through the callback registered here
// (collector_api.h), after the thread sections: its records refer to their threads and nodes.
#pragma once

#include <cstdint>

namespace parperf::mpi {

// After MPI_Init: the process's MPI identity. The rank and size replace what the environment said
// (the profile's name follows the MPI rank), and from now on every profile has an `mpi` section.
// `library` is copied.
void set_process(std::int64_t world_rank, std::int64_t world_size, std::int32_t thread_level,
                 const char* library) noexcept;

// The point-to-point figures measured at MPI_Init (latency: half the smallest round trip).
void set_network(std::uint64_t latency_ns, std::uint64_t bandwidth_bytes_per_s) noexcept;

}  // namespace parperf::mpi
