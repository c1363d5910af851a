// omp_control_tool: the program's requests to its tool (OpenMP 5.0 "Tool Control"), OpenMP's
// counterpart of MPI_Pcontrol, delivered through OMPT's control-tool callback. They switch
// recording exactly as the annotation API does, so a program written for another tool's phase
// control is measured in phases unchanged:
//   omp_control_tool_start  parperf_control(1)     omp_control_tool_pause  parperf_control(0)
//   omp_control_tool_flush  parperf_flush()        omp_control_tool_end    recording off for good
// The modifier and the argument are tool-defined; parperf uses neither.
#include "parperf/parperf.h"
#include "runtime/openmp/callbacks.hpp"

namespace parperf::runtime::openmp {
namespace {

// omp_control_tool_t and omp_control_tool_result_t (omp.h, OpenMP 5.0): the values are the
// standard's, spelled here because gcc's omp.h, which the runtime is built with, lacks them.
enum : std::uint64_t { kStart = 1, kPause = 2, kFlush = 3, kEnd = 4 };
enum : int { kSuccess = 0, kIgnored = 1 };

}  // namespace

int on_control_tool(uint64_t command, uint64_t, void*, const void*) {
  switch (command) {
    case kStart:
      parperf_control(1);
      return kSuccess;
    case kPause:
      parperf_control(0);
      return kSuccess;
    case kFlush:
      parperf_flush();
      return kSuccess;
    case kEnd:
      end_recording();
      return kSuccess;
    default:  // tool-specific commands (64 and above) of other tools
      return kIgnored;
  }
}

}  // namespace parperf::runtime::openmp
