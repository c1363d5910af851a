// Where a process of a parallel job learns its rank before any collector has run: the environment
// variables the job launchers export (Open MPI's mpirun, PMIx launchers, MPICH's Hydra, Slurm's
// srun). One list for the runtime (which names the profile by it), the memory collector and the
// `parperf` command (which tells a rank of a job from a lone process). A collector that learns the
// rank later (MPI_Init) replaces it. A launcher of another programming model adds its names here.
#pragma once

namespace parperf::format {

// The first variable that is set wins. parperf's own PARPERF_RANK / PARPERF_WORLD_SIZE come before
// these where the runtime reads them.
inline constexpr const char* kLauncherRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                                         "SLURM_PROCID"};
inline constexpr const char* kLauncherSizeVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};

}  // namespace parperf::format
