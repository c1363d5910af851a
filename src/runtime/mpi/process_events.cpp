// MPI_Init, MPI_Finalize, MPI_Abort and MPI_Pcontrol: the process's MPI identity, the clock
// exchanges and the network figures, a profile written before an abort kills the job, and the
// program's switching of recording.
#include <cstring>

#include "parperf/parperf.h"
#include "runtime/collector_api.h"
#include "runtime/mpi/clock_sync.hpp"
#include "runtime/mpi/communicators.hpp"
#include "runtime/mpi/measure.hpp"
#include "runtime/mpi/mpi_section.hpp"
#include "runtime/mpi/windows.hpp"

namespace parperf::mpi {
namespace {

MPI_Comm g_clock_comm = MPI_COMM_NULL;  // private: the exchanges never meet the program's messages
bool g_initialised = false;

// The first line of MPI_Get_library_version ("Open MPI v4.1.4, package: ...").
void library_version(char* text, std::size_t size) {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int length = 0;
  if (PMPI_Get_library_version(version, &length) != MPI_SUCCESS) version[0] = '\0';
  std::size_t n = 0;
  while (n + 1 < size && version[n] != '\0' && version[n] != '\n') {
    text[n] = version[n];
    ++n;
  }
  text[n] = '\0';
}

}  // namespace

void before_init() noexcept { parperf_collector_process_phase(PARPERF_PROCESS_STARTING_UP); }

void after_setup() noexcept { parperf_collector_process_phase(PARPERF_PROCESS_RUNNING); }

void after_init(const int* provided) noexcept {
  if (g_initialised || !parperf_collector_active()) return;
  int initialised = 0;
  if (PMPI_Initialized(&initialised) != MPI_SUCCESS || !initialised) return;
  g_initialised = true;
  parperf_collector_code_loaded();  // the components MPI_Init opened: samples in them are walked through
  int rank = 0, size = 1, level = MPI_THREAD_SINGLE;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided)
    level = *provided;
  else
    PMPI_Query_thread(&level);
  char library[256];
  library_version(library, sizeof library);
  set_process(rank, size, level, library);
  register_communicator(MPI_COMM_WORLD);
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &g_clock_comm) != MPI_SUCCESS) return;
  const NetworkFigures figures = exchange_clocks(g_clock_comm, 0);
  set_network_figures(figures);
  const double ticks_per_ns = parperf_collector_ticks_per_ns();
  set_network(static_cast<std::uint64_t>(static_cast<double>(figures.latency_ticks) / ticks_per_ns),
              figures.ticks_per_byte > 0
                  ? static_cast<std::uint64_t>(ticks_per_ns * 1e9 / figures.ticks_per_byte)
                  : 0);
}

void before_finalize() noexcept {
  parperf_collector_process_phase(PARPERF_PROCESS_SHUTTING_DOWN);
  if (!g_initialised || g_clock_comm == MPI_COMM_NULL) return;
  exchange_clocks(g_clock_comm, 1);
  PMPI_Comm_free(&g_clock_comm);
}

void before_abort(int error_code) noexcept {
  // The job is about to be killed: the profile now. The runtime ignores it when it is not measuring.
  parperf_collector_end_run(static_cast<std::uint32_t>(format::EndReason::mpi_abort), error_code & 0xffff);
}

void control_profiling(int level) noexcept {
  if (level >= 0) parperf_control(level >= 1 ? 1 : 0);
}

void after_comm_create(const MPI_Comm* created) noexcept {
  if (g_initialised && created) register_communicator(*created);
}

void before_comm_free(MPI_Comm comm) noexcept {
  if (g_initialised) unregister_communicator(comm);
}

void after_win_create(MPI_Comm comm, MPI_Win win) noexcept {
  if (g_initialised) register_window(win, comm);
}

void before_win_free(MPI_Win win) noexcept {
  if (g_initialised) unregister_window(win);
}

}  // namespace parperf::mpi
