// parperf's site kinds in OTF2's words: the paradigm and role of a region, the collective
// operation an MPI call performs, and the bytes it sends and receives.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string_view>

namespace parperf::exports {

// MPI, OpenSHMEM, UPC, OpenMP, or the user's (intervals and annotations).
OTF2_Paradigm paradigm_of(std::uint32_t kind);
// function, loop, parallel, barrier, point-to-point, a collective's shape...; code when none fits.
OTF2_RegionRole role_of(std::uint32_t kind);
// By the MPI function's name ("MPI_Iallreduce" as MPI_Allreduce), else by the site's kind.
OTF2_CollectiveOp collective_of(std::string_view name, std::uint32_t kind);

// A collective's MpiCollectiveEnd sizes as Score-P writes them (and Scalasca and Vampir read them),
// from the one figure the trace keeps, what the rank sent plus what it received as its arguments
// say (runtime/mpi/collective_bytes.hpp). With b the rank's block and N the communicator's size:
// Bcast root N·b sent, b received, the others 0 and b; Scatter the same; Gather and Reduce root b
// and N·b, the others b and 0; Allreduce N·b both ways, as an all-to-all exchange of b (an 8-byte
// MPI_Allreduce on 4 ranks: 32 and 32); Allgather N·b both ways; Alltoall half each; Scan and
// Exscan b each; Reduce_scatter N·b sent, b received; Barrier nothing. The block is recovered
// exactly for calls whose counts are equal on every rank and that do not pass MPI_IN_PLACE at a
// root; the v- and w-variants are read as if their counts were equal.
struct CollectiveSizes {
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
};
CollectiveSizes collective_sizes(OTF2_CollectiveOp op, std::uint64_t bytes, bool root, std::uint64_t ranks);

}  // namespace parperf::exports
