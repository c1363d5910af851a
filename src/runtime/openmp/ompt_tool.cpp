// The OMPT tool: the entry point an OpenMP runtime looks for (ompt_start_tool) and the callback
// registration. libomp finds the symbol in any loaded library, so linking the runtime or
// preloading it with `parperf run` is enough; PARPERF_OPENMP=0 declines. Programs built with gcc
// or gfortran reach libomp through `parperf run`, which substitutes it for libgomp.
#include <omp-tools.h>

#include <cstring>

#include "runtime/collector.hpp"
#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {
namespace {

template <class Callback>
void set(ompt_set_callback_t set_callback, ompt_callbacks_t event, Callback callback) {
  set_callback(event, reinterpret_cast<ompt_callback_t>(callback));
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  // Return addresses inside the runtime itself say nothing about the program (site_at).
  mark_foreign_runtime_module(reinterpret_cast<const void*>(lookup));
  set(set_callback, ompt_callback_thread_begin, &on_thread_begin);
  set(set_callback, ompt_callback_thread_end, &on_thread_end);
  set(set_callback, ompt_callback_parallel_begin, &on_parallel_begin);
  set(set_callback, ompt_callback_parallel_end, &on_parallel_end);
  set(set_callback, ompt_callback_implicit_task, &on_implicit_task);
  set(set_callback, ompt_callback_work, &on_work);
  set(set_callback, ompt_callback_masked, &on_masked);
  set(set_callback, ompt_callback_dispatch, &on_dispatch);
  set(set_callback, ompt_callback_sync_region, &on_sync_region);
  set(set_callback, ompt_callback_sync_region_wait, &on_sync_region_wait);
  set(set_callback, ompt_callback_reduction, &on_sync_region);
  set(set_callback, ompt_callback_mutex_acquire, &on_mutex_acquire);
  set(set_callback, ompt_callback_mutex_acquired, &on_mutex_acquired);
  set(set_callback, ompt_callback_mutex_released, &on_mutex_released);
  set(set_callback, ompt_callback_nest_lock, &on_nest_lock);
  set(set_callback, ompt_callback_lock_init, &on_lock_init);
  set(set_callback, ompt_callback_lock_destroy, &on_lock_destroy);
  set(set_callback, ompt_callback_flush, &on_flush);
  set(set_callback, ompt_callback_task_create, &on_task_create);
  set(set_callback, ompt_callback_task_schedule, &on_task_schedule);
  set(set_callback, ompt_callback_control_tool, &on_control_tool);
  return 1;  // keep the tool
}

void finalize(ompt_data_t*) {}

// The OpenMP runtime's version string, for the profile's process record.
char g_runtime_version[256] = "";

void describe_runtime(format::ProcessRecord& process) noexcept {
  process.openmp_runtime = std::string_view(g_runtime_version, std::strlen(g_runtime_version));
}

}  // namespace
}  // namespace parperf::runtime::openmp

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int, const char* runtime_version) {
  using namespace parperf::runtime;
  if (!parperf_collector_active() || !flag_setting("PARPERF_OPENMP", true)) return nullptr;
  std::strncpy(openmp::g_runtime_version, runtime_version ? runtime_version : "",
               sizeof openmp::g_runtime_version - 1);
  register_process_describer(&openmp::describe_runtime);
  static ompt_start_tool_result_t result = {&openmp::initialize, &openmp::finalize, {0}};
  return &result;
}
