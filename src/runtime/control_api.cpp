// Measurement control in the C API: parperf_control, parperf_is_recording, parperf_flush. The
// collectors' control calls (a programming model's own profiling-control call) come through here too, so that
// every way of switching recording behaves the same (recording_switch.hpp says what a switch means).
#include "format/records.hpp"
#include "parperf/parperf.h"
#include "runtime/profile_writer.hpp"
#include "runtime/recording_switch.hpp"
#include "runtime/runtime_state.hpp"
#include "runtime/thread_state.hpp"

using namespace parperf::runtime;

extern "C" {

void parperf_control(int on) {
  if (!ensure_initialised()) return;
  current_thread();  // a thread that switches recording on is part of the run
  switch_recording(on != 0);
}

int parperf_is_recording(void) { return ensure_initialised() && recording() ? 1 : 0; }

void parperf_flush(void) {
  if (!ensure_initialised() || lifecycle() != Lifecycle::active) return;
  write_profile(parperf::format::EndReason::flush, 0);
}

}  // extern "C"
