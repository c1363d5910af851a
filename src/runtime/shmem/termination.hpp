// The profile of a PE that the launcher terminates. When one PE calls shmem_global_exit, the launcher
// ends the others with SIGTERM (after a SIGCONT), giving them about a second before SIGKILL. The
// runtime's own SIGTERM handler would write their profiles, but Open MPI's shmem_init replaces it
// with liboshmem's: after init, the collector puts a handler in front of the library's that writes
// the profile (end reason `signal`) and then runs the library's handler as if it had been called
// directly, so the program's fate is what it was.
#pragma once

namespace parperf::shmem {

// Once, after pshmem_init returned.
void install_termination_writer() noexcept;

}  // namespace parperf::shmem
