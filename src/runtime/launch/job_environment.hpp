// Where a process of a parallel job learns its rank before any collector has run: the environment
// variables the job launchers export (Open MPI's mpirun, PMIx launchers, MPICH's Hydra), after
// parperf's own. The runtime reads them at start-up to name the profile; a collector that learns
// the rank later (MPI_Init) replaces it (parperf_collector_set_process). A launcher of another
// programming model adds its variables here, not in the core.
#pragma once

namespace parperf::runtime {

// The first variable that is set wins.
inline constexpr const char* kRankVariables[] = {"PARPERF_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
                                                 "PMI_RANK"};
inline constexpr const char* kWorldSizeVariables[] = {"PARPERF_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                                      "PMI_SIZE"};

}  // namespace parperf::runtime
