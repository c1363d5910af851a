// The sampling signal belongs to the program too. Sampling takes a real-time signal whose
// disposition is the default when the runtime starts (SIGRTMIN+7 unless the program handles it:
// sampler.cpp). A program may install a handler for that number later: the runtime interposes
// sigaction() and signal() so that the kernel keeps the sampler's handler while the program's
// disposition is kept here, reported back to the program as its own, and applied to every signal
// of that number that is not a sampling timer's. The program's handler so sees exactly its own
// signals, and sampling goes on. One warning says so. The same holds for SIGTRAP while the perf-event
// clocks signal by a trap (sampler.hpp, perf_event_clock.hpp): breakpoints, a debugger's traps and the
// program's own raise(SIGTRAP) get the program's disposition.
//
// Not in sanitizer builds, whose runtimes intercept sigaction themselves (thread_start_hook.cpp):
// there a program's handler replaces the sampler's (sampler.cpp warns when a thread starts).
#pragma once

#include <signal.h>

namespace parperf::runtime {

// The C library's sigaction, which the program would have called without us.
int next_sigaction(int signal, const struct sigaction* action, struct sigaction* previous) noexcept;

// In the sampler's handler, for a signal of its number that no timer sent: what the program's
// disposition says (its handler with its mask and flags, ignored, or the default course: the
// process ends as it would have without us). Async-signal-safe.
void pass_to_program(int signal, siginfo_t* info, void* context) noexcept;

}  // namespace parperf::runtime
