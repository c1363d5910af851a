// Threads of the runtime's own (the event trace's writer): started with the C library's
// pthread_create, past the interposer that registers the program's threads (thread_start_hook.cpp),
// so they are never measured, and with every signal blocked, so that no signal meant for the
// program lands on them.
#pragma once

#include <pthread.h>

#include <cstdint>

namespace parperf::runtime {

// pthread_create's result.
int create_runtime_thread(pthread_t* thread, void* (*function)(void*), void* argument) noexcept;

// How many threads the programming models' libraries started for themselves so far, left unmeasured
// and unsampled (thread_start_hook.cpp); 0 in sanitizer builds, which do not interpose pthread_create.
std::uint32_t model_threads_left_out() noexcept;

}  // namespace parperf::runtime
