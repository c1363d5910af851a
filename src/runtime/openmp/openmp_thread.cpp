#include "runtime/openmp/openmp_thread.hpp"

#include "runtime/private_memory.hpp"

namespace parperf::runtime::openmp {
namespace {

constinit thread_local OpenMPThread* t_omp __attribute__((tls_model("initial-exec"))) = nullptr;

// Cold: a thread's first OpenMP event. The state lives as long as the thread's data (forever).
__attribute__((noinline)) OpenMPThread* create_state() noexcept {
  t_omp = create_private<OpenMPThread>();
  return t_omp;
}

}  // namespace

Measured measured_thread() noexcept {
  ThreadState* t = current_thread();
  if (__builtin_expect(!t, 0)) return {};
  OpenMPThread* omp = t_omp;
  if (__builtin_expect(!omp, 0)) omp = create_state();
  return {t, omp};
}

}  // namespace parperf::runtime::openmp
