// shmem_init, shmem_finalize and shmem_global_exit: the PE's identity, and a profile written before
// a global exit ends the job (measure.hpp).
#include <pshmem.h>

#include "runtime/collector_api.h"
#include "runtime/shmem/lock_identity.hpp"
#include "runtime/shmem/measure.hpp"
#include "runtime/shmem/shmem_section.hpp"
#include "runtime/shmem/termination.hpp"

namespace parperf::shmem {

void before_init() noexcept { parperf_collector_process_phase(PARPERF_PROCESS_STARTING_UP); }

void after_setup() noexcept { parperf_collector_process_phase(PARPERF_PROCESS_RUNNING); }

void after_init() noexcept {
  static bool initialised = false;  // a second shmem_init is a no-op in the library too
  if (initialised || !parperf_collector_active()) return;
  initialised = true;
  parperf_collector_code_loaded();  // the components shmem_init opened: samples in them are walked through
  set_process(pshmem_my_pe(), pshmem_n_pes());
  remember_program_image();
  install_termination_writer();
}

void before_finalize() noexcept { parperf_collector_process_phase(PARPERF_PROCESS_SHUTTING_DOWN); }

void before_global_exit(int status) noexcept {
  // The calling PE leaves through the launcher's abort: no atexit handler, no destructor runs.
  parperf_collector_end_run(static_cast<std::uint32_t>(format::EndReason::global_exit),
                            static_cast<int>(static_cast<unsigned>(status) & 0xffffu));
}

}  // namespace parperf::shmem
