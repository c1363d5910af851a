// parperf's site kinds in OTF2's words: the paradigm and role of a region, and the collective
// operation an MPI call performs.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <string_view>

namespace parperf::exports {

// MPI, OpenMP, or the user's (intervals and annotations).
OTF2_Paradigm paradigm_of(std::uint32_t kind);
// function, loop, parallel, barrier, point-to-point, a collective's shape...; code when none fits.
OTF2_RegionRole role_of(std::uint32_t kind);
// By the MPI function's name ("MPI_Iallreduce" as MPI_Allreduce), else by the site's kind.
OTF2_CollectiveOp collective_of(std::string_view name, std::uint32_t kind);

}  // namespace parperf::exports
