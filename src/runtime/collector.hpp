// The collector API's C++ face, for the collectors compiled into libparperf.so (a parallel
// runtime's tool interface must find its tool in the preloaded runtime). Everything of
// collector_api.h, plus what those collectors need at the cost of an inline call: the interval
// stack at their own time stamps (interval_stack.hpp), code sites they keep pointers to
// (code_sites.hpp), the calling thread as a handle (current_thread.hpp), the recording switch
// (recording_switch.hpp), on/off settings (config.hpp), and a few calls on the thread's state. A collector
// includes this header and nothing else of the core; it never reads or writes a ThreadState or Node itself.
#pragma once

#include <cstdint>

#include "format/records.hpp"
#include "runtime/clock.hpp"
#include "runtime/code_sites.hpp"
#include "runtime/collector_api.h"
#include "runtime/config.hpp"  // flag_setting
#include "runtime/current_thread.hpp"
#include "runtime/interval_stack.hpp"
#include "runtime/recording_switch.hpp"  // end_recording

namespace parperf::runtime {

// What created the thread (a runtime's initial thread, a worker of its pool).
void set_thread_kind(ThreadState& t, format::ThreadKind kind) noexcept;

// A thread of a runtime's pool stops executing the program's work at `now` (parked), or starts
// again (unparked): the profile states each thread's parked time. Parking a parked thread, or
// unparking one that is not, changes nothing; a thread that ends while parked is unparked then.
void thread_parked(ThreadState& t, std::uint64_t now) noexcept;
void thread_unparked(ThreadState& t, std::uint64_t now) noexcept;

// Fills in what the collector knows of the process (a field of the profile's process record that
// is the collector's, such as the version of the runtime it measures). Called by the profile
// writer: async-signal-safe, and the strings it sets must live until the process ends.
using ProcessDescriber = void (*)(format::ProcessRecord& process) noexcept;
bool register_process_describer(ProcessDescriber describe) noexcept;

}  // namespace parperf::runtime
