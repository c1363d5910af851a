// Profiles written while a young thread runs that does nothing but enter and leave intervals
// (runtime_flush_young_thread_program.c: its life is all probes, and it is read while running):
// every one is reported. Such a thread's calibrated probe cost may exceed what each entry cost in its
// loop, so its probes' estimate can exceed its lifetime; the report refused 64 to 80 of 100 such
// profiles as impossible (profile_invariants.hpp, kProbeEstimateFactor); 100 flushes, as the estimate varies
// from thread to thread and fewer may all fall below it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

TEST(RuntimeFlushYoungThread, EveryProfileFlushedWhileAProbeBoundThreadRunsIsReported) {
  const fs::path dir = fs::path(std::getenv("PARPERF_DIR"));
  fs::remove_all(dir);
  constexpr int kFlushes = 100;
  const std::string program = std::string(YOUNG_THREAD_PROGRAM) + " " + std::to_string(kFlushes);
  ASSERT_EQ(std::system(program.c_str()), 0) << program;
  int refused = 0;
  std::string first;
  for (int n = 0; n < kFlushes; ++n) {
    const fs::path copy = dir / ("flush-" + std::to_string(n));
    ASSERT_TRUE(fs::exists(copy / "profile.0.ppf")) << copy;
    const std::string command = std::string(PARPERF_COMMAND) + " report --json '" + copy.string() +
                                "' > /dev/null 2> '" + (copy / "report.err").string() + "'";
    const int status = std::system(command.c_str());
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;
    ++refused;
    std::ifstream errors(copy / "report.err");
    if (first.empty()) first.assign(std::istreambuf_iterator<char>(errors), std::istreambuf_iterator<char>());
  }
  EXPECT_EQ(refused, 0) << refused << " of " << kFlushes
                        << " flushed profiles refused, the first with: " << first;
}

}  // namespace
