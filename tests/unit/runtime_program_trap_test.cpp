// A sampled program that uses SIGTRAP itself, while the perf-event clocks signal by traps
// (runtime/perf_event_clock.hpp): its handler must see exactly the traps it raises, never a
// sample's, the program must still be sampled, and a trap it leaves to the default disposition
// must end it as it would without parperf. Skipped where the kernel has no perf-event traps (before
// Linux 5.13, or perf events not allowed): the sampler then keeps the real-time signal, which
// runtime_program_signal_test covers.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>

#include "format/profile_reader.hpp"
#include "parperf/parperf.h"
#include "support/user_cpu_burn.hpp"

namespace parperf::testing {
namespace {

volatile sig_atomic_t g_own = 0;      // the traps the program raised itself
volatile sig_atomic_t g_foreign = 0;  // traps its handler got that it did not raise (a sample's)

void count(int, siginfo_t* info, void*) {
  if (info->si_code == SI_TKILL)
    g_own = g_own + 1;
  else
    g_foreign = g_foreign + 1;
}

// Whether the kernel delivers SIGTRAP to a handler (the sampler's), asked past the runtime's
// sigaction, which reports the program's own disposition instead.
bool kernel_has_a_trap_handler() {
  struct {
    void* handler;
    unsigned long flags;
    void* restorer;
    std::uint64_t mask;
  } current{};
  return syscall(SYS_rt_sigaction, SIGTRAP, nullptr, &current, sizeof current.mask) == 0 &&
         current.handler != reinterpret_cast<void*>(SIG_DFL) &&
         current.handler != reinterpret_cast<void*>(SIG_IGN);
}

TEST(RuntimeProgramTrap, TheProgramsTrapHandlerSeesOnlyItsOwnTrapsAndSamplingGoesOn) {
  burn_user_cpu_ms(5);  // the thread's clock is open once the runtime started: the kernel's handler is set
  if (!kernel_has_a_trap_handler())
    GTEST_SKIP()
        << "the sampler does not use traps here (a kernel before 5.13, perf events not allowed, or traced)";
  struct sigaction action {};
  action.sa_sigaction = count;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGTRAP, &action, nullptr), 0);
  struct sigaction reported {};
  ASSERT_EQ(sigaction(SIGTRAP, nullptr, &reported), 0);
  EXPECT_EQ(reported.sa_sigaction, count) << "sigaction must report the program's own SIGTRAP handler";
  // 100 traps, 2 ms of CPU time apart: at PARPERF_SAMPLE_HZ=1000 about 200 samples meanwhile.
  for (int i = 0; i < 100; ++i) {
    burn_user_cpu_ms(2);
    ASSERT_EQ(raise(SIGTRAP), 0);
  }
  EXPECT_EQ(g_foreign, 0) << "the program's SIGTRAP handler got " << g_foreign
                          << " traps of the sampling clock besides its own";
  EXPECT_EQ(g_own, 100) << "the program raised 100 traps";
  parperf_flush();
  const format::Profile profile =
      format::read_profile_file(std::filesystem::path(std::getenv("PARPERF_DIR")) / "profile.0.ppf");
  ASSERT_TRUE(profile.call_paths) << "PARPERF_SAMPLE_HZ is set: the profile must have a call_paths section";
  std::uint64_t samples = 0;
  for (const format::CallPathThread& thread : profile.call_paths->threads) samples += thread.samples;
  EXPECT_GT(samples, 100u) << "200 ms of CPU time at 1 kHz: sampling stopped or lost its traps";
}

// Run in a new process of this program (the thread-safe death test re-executes it), so that the
// runtime starts there too and samples it by traps before it raises its own.
TEST(RuntimeProgramTrap, ATrapLeftToTheDefaultDispositionEndsTheProgramAsWithoutSampling) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        struct sigaction fallback {};
        fallback.sa_handler = SIG_DFL;
        sigaction(SIGTRAP, &fallback, nullptr);
        burn_user_cpu_ms(50);  // some 50 samples, each a trap the sampler takes and the default never sees
        raise(SIGTRAP);
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTRAP), "");
}

}  // namespace
}  // namespace parperf::testing
