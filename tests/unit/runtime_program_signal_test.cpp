// A program with its own handler for SIGRTMIN+7, the sampler's preferred signal, under sampling: its
// handler must see exactly the 100 signals it sends itself, never a sampling timer's, and the
// program must still be sampled (docs/runtime.md, "Call-path sampling").
//
// Built twice. PARPERF_LOAD_LATE: the program installs its handler before the runtime starts (it
// loads libparperf with dlopen afterwards), so the sampler must take another signal. Otherwise the
// runtime starts first (the library is linked) and the program installs its handler later, on the
// signal the sampler already uses.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "format/profile_reader.hpp"
#include "support/user_cpu_burn.hpp"

#ifndef PARPERF_LOAD_LATE
#include "parperf/parperf.h"
#endif

namespace parperf::testing {
namespace {

volatile sig_atomic_t g_own = 0;      // the program's own signals
volatile sig_atomic_t g_foreign = 0;  // signals its handler got that it did not send (a timer's)

void count(int, siginfo_t* info, void*) {
  if (info->si_code == SI_TKILL)
    g_own = g_own + 1;
  else
    g_foreign = g_foreign + 1;
}

void install_own_handler() {
  struct sigaction action {};
  action.sa_sigaction = count;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGRTMIN + 7, &action, nullptr), 0);
}

// 100 signals to itself, 2 ms of CPU time apart: at PARPERF_SAMPLE_HZ=1000 the timer fires
// about 200 times meanwhile.
void send_own_signals() {
  for (int i = 0; i < 100; ++i) {
    burn_user_cpu_ms(2);
    ASSERT_EQ(pthread_kill(pthread_self(), SIGRTMIN + 7), 0);
  }
}

format::Profile flush_and_read_profile() {
#ifdef PARPERF_LOAD_LATE
  auto flush = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "parperf_flush"));
  if (!flush) throw std::runtime_error("libparperf is not loaded");
  flush();
#else
  parperf_flush();
#endif
  return format::read_profile_file(std::filesystem::path(std::getenv("PARPERF_DIR")) / "profile.0.ppf");
}

TEST(RuntimeProgramSignal, TheProgramsHandlerSeesOnlyItsOwnSignalsAndSamplingGoesOn) {
#ifdef PARPERF_LOAD_LATE
  install_own_handler();
  ASSERT_NE(dlopen(PARPERF_LIBRARY, RTLD_NOW | RTLD_GLOBAL), nullptr) << dlerror();
#else
  install_own_handler();
#endif
  send_own_signals();
  EXPECT_EQ(g_foreign, 0) << "the program's SIGRTMIN+7 handler got " << g_foreign
                          << " signals of the sampling timer besides its own";
  EXPECT_EQ(g_own, 100) << "the program sent itself 100 signals";

  const format::Profile profile = flush_and_read_profile();
  ASSERT_TRUE(profile.call_paths) << "PARPERF_SAMPLE_HZ is set: the profile must have a call_paths section";
  std::uint64_t samples = 0;
  for (const format::CallPathThread& thread : profile.call_paths->threads) samples += thread.samples;
  EXPECT_GT(samples, 0u) << "200 ms of CPU time at 1 kHz gave no sample: sampling stopped";
}

#ifndef PARPERF_LOAD_LATE
// The program's own signals sent to a thread that waits in poll (which the runtime interposes,
// holding the sample signal meanwhile so that samples do not cut the wait short): each reaches the
// program's handler, once the wait returns.
TEST(RuntimeProgramSignal, TheProgramsSignalsDuringAWaitReachItsHandler) {
  install_own_handler();
  const sig_atomic_t before = g_own;
  const pthread_t waiter = pthread_self();
  std::thread sender([waiter] {
    for (int i = 0; i < 10; ++i) {
      pthread_kill(waiter, SIGRTMIN + 7);
      const timespec gap{0, 5'000'000};
      nanosleep(&gap, nullptr);
    }
  });
  for (int i = 0; i < 10; ++i) poll(nullptr, 0, 10);
  sender.join();
  poll(nullptr, 0, 10);  // a signal held during the last wait is delivered once it returns
  EXPECT_EQ(g_own - before, 10) << "the program sent 10 signals to its waiting thread";
  EXPECT_EQ(g_foreign, 0) << "signals of the sampling timer reached the program's handler";
}
#endif

}  // namespace
}  // namespace parperf::testing
