#include "cli/host_cores.hpp"

#include <sched.h>
#include <unistd.h>

namespace parperf::cli {

std::optional<format::HostCores> host_cores() {
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online < 1) return std::nullopt;
  format::HostCores cores{.online = online, .allowed = online};
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  // A host with more CPUs than a cpu_set_t holds (1024) fails here: all online ones count then.
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
    cores.allowed = CPU_COUNT(&allowed);
  return cores;
}

unsigned analysis_threads() {
  const std::optional<format::HostCores> cores = host_cores();
  return cores && cores->allowed > 0 ? static_cast<unsigned>(cores->allowed) : 1;
}

}  // namespace parperf::cli
