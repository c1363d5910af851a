// A sampled call path as the user reads it: the nodes of a path (the profile's `call_paths`), with
// parperf's own frames and the internals of the libraries parperf measures taken out.
//
// - Below a call into a library a collector measures (MPI, OpenSHMEM: the collector's wrapper is the
//   function the program called, and is named by it), the library's internals are folded into that
//   call: a wait in MPI_Recv is MPI_Recv's, not `ompi_request_default_wait > sched_yield`'s. With
//   `internals`, they are kept below it.
// - parperf's runtime (its thread-start trampoline, its callbacks, the waits it keeps whole) never
//   appears between two frames of the program: such frames are dropped; at the leaf end, the first
//   of them is kept, named by the function the program called (a kept-whole `nanosleep`).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "format/profile.hpp"

namespace parperf::analysis {

// What a module is to the folding.
enum class SampledModule {
  program,         // the program and every library parperf does not measure
  api_wrappers,    // a collector that wraps a library's API (libparperf-mpi, libparperf-shmem)
  parperf_runtime  // parperf's own code (libparperf, its memory and function-instrumentation hooks)
};
SampledModule sampled_module_kind(std::string_view module_path);

// Whether `function` (demangled) is one of parperf's internal functions (its C++ namespace: the
// collectors' callbacks, the sampler), as against its C API or an interposed call named by the
// function the program called. A path's kept leaf-end frame of parperf's runtime that is one of
// them (a sample inside an OpenMP runtime's callback into parperf) is left out too: the sample
// counts for the code that called it, as parperf's own frames never appear.
inline bool parperf_internal_function(std::string_view function) { return function.starts_with("parperf::"); }

// The nodes of the path that ends at `leaf` of `thread`, outermost first, as the user reads it (above).
// A damaged tree (a parent after its child) ends the path where it breaks.
std::vector<std::uint32_t> user_call_path(const format::CallPaths& paths,
                                          const format::CallPathThread& thread, std::uint32_t leaf,
                                          bool internals);

}  // namespace parperf::analysis
