#include "runtime/shmem/termination.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>

#include "format/records.hpp"
#include "runtime/collector_api.h"

namespace parperf::shmem {
namespace {

struct sigaction g_previous {};  // what was installed before: liboshmem's handler, usually

void on_terminate(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  parperf_collector_end_run(static_cast<std::uint32_t>(format::EndReason::signal), signal);
  errno = saved_errno;
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler == SIG_DFL) {
    sigaction(signal, &g_previous, nullptr);  // die of it, as without us
    raise(signal);
  } else if (g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signal);
  }
}

}  // namespace

void install_termination_writer() noexcept {
  struct sigaction current {};
  if (sigaction(SIGTERM, nullptr, &current) != 0) return;
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) return;  // nothing ends it
  g_previous = current;
  struct sigaction action {};
  action.sa_sigaction = on_terminate;
  action.sa_flags = SA_SIGINFO | (current.sa_flags & (SA_RESTART | SA_ONSTACK));
  action.sa_mask = current.sa_mask;
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace parperf::shmem
