/* The interface libparperf.so offers libparperf-mpi.so (the PMPI wrappers, a separate library so
 * that only MPI programs load MPI). The MPI library holds everything that needs mpi.h; the
 * runtime holds the statistics, the communicators' instance samples and the clock exchanges, and
 * writes them with the rest of the profile (section `mpi`, docs/format.md).
 *
 * Not a public API: the names are exported because the two libraries are separate shared objects,
 * and they change with the runtime (both libraries come from the same build). */
#ifndef PARPERF_MPI_COLLECTOR_ABI_H
#define PARPERF_MPI_COLLECTOR_ABI_H

#include <stdint.h>

#include "parperf/parperf.h" /* PARPERF_API */

#ifdef __cplusplus
extern "C" {
#endif

/* One measured MPI call. Times in ticks of parperf_mpi_now(). */
typedef struct parperf_mpi_call {
  const char* name;     /* "MPI_Send": static storage */
  const void* caller;   /* return address into the program */
  uint32_t kind;        /* format::SiteKind, mpi_* */
  int32_t communicator; /* slot of the communicator of a collective (parperf_mpi_add_communicator), else -1 */
  uint64_t start;
  uint64_t end;
  uint64_t real_sync; /* part of the call spent waiting for a partner (estimated) */
  uint64_t overlap;   /* non-blocking communication that ran while the caller computed */
  uint64_t bytes;
  int64_t partner;       /* MPI_COMM_WORLD rank of the partner, -1 if none */
  uint32_t no_departure; /* a non-blocking collective: the call starts it, a Wait ends it */
  uint32_t reserved;
} parperf_mpi_call;

/* Whether the runtime is measuring (initialises it on first use). */
PARPERF_API int parperf_mpi_active(void);
/* The runtime's clock (TSC or CLOCK_MONOTONIC ticks) and a rough ticks-per-nanosecond figure for
 * thresholds and estimates (never for reported times). */
PARPERF_API uint64_t parperf_mpi_now(void);
PARPERF_API double parperf_mpi_ticks_per_ns(void);

/* Records a finished call in the calling thread's innermost interval; a collective on a registered
 * communicator also enters the communicator's instance sample. */
PARPERF_API void parperf_mpi_record(const parperf_mpi_call* call);

/* After MPI_Init: the process's MPI identity. The rank and size replace what the environment said
 * (the profile's name follows the MPI rank). `library` is copied. */
PARPERF_API void parperf_mpi_set_process(int64_t world_rank, int64_t world_size, int32_t thread_level,
                                         const char* library);
/* The point-to-point figures measured at MPI_Init (latency: half the smallest round trip). */
PARPERF_API void parperf_mpi_set_network(uint64_t latency_ns, uint64_t bandwidth_bytes_per_s);

/* A clock exchange with the smallest round trip (phase: 0 MPI_Init, 1 MPI_Finalize). On a rank
 * r != 0: rank = r, its own send and receive ticks, master = 0. On rank 0: one call per other rank
 * with that rank and the ticks at which rank 0 answered it (send = recv = 0). */
PARPERF_API void parperf_mpi_clock_exchange(uint32_t phase, int64_t rank, uint64_t send_ticks,
                                            uint64_t recv_ticks, uint64_t master_ticks,
                                            uint64_t round_trip_ticks);

/* Registers a communicator; returns its slot (>= 0), or -1 when the table is full (its collectives
 * are then counted but not sampled). members_hash and ordinal identify it across ranks. */
PARPERF_API int32_t parperf_mpi_add_communicator(uint64_t members_hash, uint32_t ordinal, uint32_t size,
                                                 int64_t rank);

/* MPI_Abort: writes the profile now (the job is about to be killed). */
PARPERF_API void parperf_mpi_abort(int error_code);

#ifdef __cplusplus
}
#endif

#endif
