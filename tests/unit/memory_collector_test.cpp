// libparperf-mem, the memory-access collector, driven the way instrumented code drives it: threads
// calling its __sanitizer_cov_load8/store4 hooks. Each test runs the collector in a forked child
// (the trace is finished when a process ends) and reads the trace the child left. Runs under
// ThreadSanitizer too (label tsan): the threads fill their buffers and flush them concurrently.
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "format/memory_trace_reader.hpp"
#include "unit/memory_trace_test_support.hpp"

namespace parperf::test {
namespace {

using Hook = void (*)(void*);

constexpr int kThreads = 4;
constexpr std::uint64_t kAccesses = 150000;  // per thread: more than two 64 Ki buffers

// The collector's own hooks: an executable built with a sanitizer may define weak ones of its own,
// which a plain call would reach first.
Hook hook(const char* name) {
  void* library = dlopen(PARPERF_MEMORY_COLLECTOR, RTLD_NOW);
  if (library == nullptr) return nullptr;
  return reinterpret_cast<Hook>(dlsym(library, name));
}

// Thread t loads the words of its own array in order, storing to every tenth.
void make_accesses(Hook load8, Hook store4) {
  static std::vector<std::uint64_t> arrays[kThreads];
  for (auto& array : arrays) array.assign(kAccesses, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, load8, store4] {
      for (std::uint64_t i = 0; i < kAccesses; ++i) {
        if (i % 10 == 9) {
          store4(&arrays[t][i]);
        } else {
          load8(&arrays[t][i]);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
}

// Runs the accesses in a child with `environment` set; the child ends by `how` (0: exit, else that
// signal). Returns the trace it wrote.
CollectedTrace run_child(const ScratchFile& trace,
                         std::vector<std::pair<const char*, const char*>> environment, int how = 0) {
  const Hook load8 = hook("__sanitizer_cov_load8");
  const Hook store4 = hook("__sanitizer_cov_store4");
  EXPECT_TRUE(load8 && store4) << dlerror();
  CollectedTrace collected;
  if (!load8 || !store4) return collected;
  const pid_t child = fork();
  if (child == 0) {
    setenv("PARPERF_MEM_TRACE", trace.path().c_str(), 1);
    setenv("PARPERF_QUIET", "1", 1);
    for (const auto& [name, value] : environment) setenv(name, value, 1);
    make_accesses(load8, store4);
    if (how != 0) raise(how);
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (how == 0) {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  } else {
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == how) << status;
  }
  format::read_memory_trace(trace.path(), collected);
  return collected;
}

TEST(MemoryCollector, EveryThreadsAccessesInOrder) {
  ScratchFile trace;
  const auto collected = run_child(trace, {});
  ASSERT_EQ(collected.processes.size(), 1u);
  EXPECT_EQ(collected.processes[0].source, "parperf-mem");
  EXPECT_EQ(collected.processes[0].dropped, 0u);
  EXPECT_TRUE(collected.samplings.empty());
  ASSERT_EQ(collected.accesses_seen.size(), kThreads * kAccesses);
  std::map<std::uint16_t, std::vector<format::MemoryAccessRecord>> by_thread;
  for (const auto& access : collected.accesses_seen) by_thread[access.thread].push_back(access);
  ASSERT_EQ(by_thread.size(), static_cast<std::size_t>(kThreads));
  for (const auto& [thread, accesses] : by_thread) {
    for (std::uint64_t i = 1; i < accesses.size(); ++i) {
      ASSERT_EQ(accesses[i].address, accesses[i - 1].address + 8) << "thread " << thread << " access " << i;
      const bool store = i % 10 == 9;
      ASSERT_EQ(accesses[i].flags, store ? format::kAccessStore : 0);
      ASSERT_EQ(accesses[i].size, store ? 4 : 8);
      // The code address is this test's, placed in a module the trace defines.
      ASSERT_NE(accesses[i].module, format::kNoModule);
      ASSERT_EQ(format::skipped_before(accesses[i]), 0u);
    }
  }
}

TEST(MemoryCollector, SamplingKeepsBlocksAndCountsWhatItSkips) {
  ScratchFile trace;
  const auto collected = run_child(trace, {{"PARPERF_MEM_SAMPLE", "0.25"}});
  ASSERT_EQ(collected.samplings.size(), 1u);
  EXPECT_NEAR(collected.samplings[0].rate, 0.25, 1e-6);
  EXPECT_EQ(collected.samplings[0].block_bytes, 512u);
  EXPECT_EQ(collected.order.front(), 'S') << "before any access";
  std::map<std::uint16_t, std::uint64_t> covered;  // recorded + skipped before them, per thread
  std::map<std::uint16_t, std::uint64_t> recorded;
  std::map<std::uint16_t, std::uint64_t> previous;  // address of the thread's previous recorded access
  std::uint64_t gaps = 0;
  for (const auto& access : collected.accesses_seen) {
    covered[access.thread] += 1 + format::skipped_before(access);
    ++recorded[access.thread];
    EXPECT_NE(access.module, format::kNoModule);
    // Every access of a kept 512-byte block is kept: a gap in a thread's addresses is a skipped
    // block, so it ends and starts on block boundaries.
    if (auto it = previous.find(access.thread); it != previous.end() && access.address != it->second + 8) {
      ++gaps;
      EXPECT_EQ((it->second + 8) % 512, 0u) << "a kept block ends early at " << it->second;
      EXPECT_EQ(access.address % 512, 0u) << "a kept block starts late at " << access.address;
      EXPECT_EQ((access.address - it->second - 8) / 8, format::skipped_before(access)) << "skipped count";
    }
    previous[access.thread] = access.address;
  }
  EXPECT_GT(gaps, 100u) << "blocks were left out";
  ASSERT_EQ(recorded.size(), static_cast<std::size_t>(kThreads));
  for (const auto& [thread, count] : recorded) {
    // About a quarter of ~2343 blocks per thread; a wrong rate or a word-level filter fails this.
    EXPECT_NEAR(static_cast<double>(count) / kAccesses, 0.25, 0.06) << "thread " << thread;
    // The skipped counts add up to the accesses before the last recorded one.
    EXPECT_LE(covered[thread], kAccesses);
    EXPECT_GT(covered[thread], kAccesses - 5000);
  }
}

TEST(MemoryCollector, SignalledProcessStillFinishesItsTrace) {
  ScratchFile trace;
  const auto collected = run_child(trace, {}, SIGTERM);  // read_memory_trace throws if unfinished
  EXPECT_EQ(collected.accesses_seen.size(), kThreads * kAccesses);
}

// A trace path naming a FIFO (or a device such as /dev/null) is written in place: renaming the
// finished temporary file over it would replace the FIFO with a regular file.
TEST(MemoryCollector, FifoIsWrittenInPlaceAndStaysAFifo) {
  ScratchFile fifo(".fifo");
  ScratchFile copy;
  ASSERT_EQ(mkfifo(fifo.path().c_str(), 0600), 0) << std::strerror(errno);
  const Hook load8 = hook("__sanitizer_cov_load8");
  const Hook store4 = hook("__sanitizer_cov_store4");
  ASSERT_TRUE(load8 && store4) << dlerror();
  const pid_t child = fork();
  if (child == 0) {
    setenv("PARPERF_MEM_TRACE", fifo.path().c_str(), 1);
    setenv("PARPERF_QUIET", "1", 1);
    make_accesses(load8, store4);
    std::exit(0);
  }
  // The reader at the other end copies the stream to a file. Non-blocking, so that a collector that
  // never opens the FIFO ends the copy (when the child has exited) rather than hanging the test.
  const int reader = open(fifo.path().c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0) << std::strerror(errno);
  std::ofstream out(copy.path(), std::ios::binary);
  int status = 0;
  bool exited = false;
  for (;;) {
    char chunk[1 << 16];
    const ssize_t n = read(reader, chunk, sizeof chunk);
    if (n > 0) {
      out.write(chunk, n);
      continue;
    }
    if (exited) break;  // nothing left and no writer to come
    if (waitpid(child, &status, WNOHANG) == child) {
      exited = true;  // one more read drains what the child wrote before it ended
      continue;
    }
    pollfd wait_for{reader, POLLIN, 0};
    poll(&wait_for, 1, 10);
  }
  close(reader);
  out.close();
  struct stat after {};
  ASSERT_EQ(stat(fifo.path().c_str(), &after), 0);
  EXPECT_TRUE(S_ISFIFO(after.st_mode)) << "the FIFO was replaced";
  EXPECT_FALSE(std::filesystem::exists(fifo.path().string() + ".partial"));
  CollectedTrace collected;
  format::read_memory_trace(copy.path(), collected);
  EXPECT_EQ(collected.accesses_seen.size(), kThreads * kAccesses);
}

TEST(MemoryCollector, UnwritableTraceLeavesTheProgramRunning) {
  const pid_t child = fork();
  if (child == 0) {
    setenv("PARPERF_MEM_TRACE", "/proc/parperf-no-such-dir/trace.ppm", 1);
    const Hook load8 = hook("__sanitizer_cov_load8");
    const Hook store4 = hook("__sanitizer_cov_store4");
    if (!load8 || !store4) std::_Exit(3);
    make_accesses(load8, store4);
    std::exit(7);  // the program's own status comes through
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7) << status;
}

// The sampled mode (`parperf cc --sampled`), driven as its instrumented code drives it: each thread
// decrements its own __parperf_mem_countdown (the library's thread-local, found per thread by dlsym)
// before every access and calls __parperf_mem_sampled when it reaches 0.
TEST(MemoryCollector, SampledModeRecordsEachThreadsBurstsOfConsecutiveAccesses) {
  constexpr std::uint64_t kBurst = 1000, kGap = 9000;
  ScratchFile trace;
  using SlowPath = void (*)(void*, std::uint32_t);
  void* library = dlopen(PARPERF_MEMORY_COLLECTOR, RTLD_NOW);
  ASSERT_NE(library, nullptr) << dlerror();
  const auto sampled = reinterpret_cast<SlowPath>(dlsym(library, "__parperf_mem_sampled"));
  ASSERT_NE(sampled, nullptr) << dlerror();
  const pid_t child = fork();
  if (child == 0) {
    setenv("PARPERF_MEM_TRACE", trace.path().c_str(), 1);
    setenv("PARPERF_QUIET", "1", 1);
    setenv("PARPERF_MEM_BURST", std::to_string(kBurst).c_str(), 1);
    setenv("PARPERF_MEM_GAP", std::to_string(kGap).c_str(), 1);
    static std::vector<std::uint64_t> arrays[kThreads];
    for (auto& array : arrays) array.assign(kAccesses, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([t, library, sampled] {
        auto* countdown = static_cast<std::uint32_t*>(dlsym(library, "__parperf_mem_countdown"));
        for (std::uint64_t i = 0; i < kAccesses; ++i)
          if (--*countdown == 0) sampled(&arrays[t][i], 8);
      });
    }
    for (auto& thread : threads) thread.join();
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  CollectedTrace collected;
  format::read_memory_trace(trace.path(), collected);
  ASSERT_EQ(collected.burst_sections.size(), 1u) << "the trace does not say it holds bursts";
  EXPECT_EQ(collected.burst_sections[0].burst_length, kBurst);
  EXPECT_EQ(collected.burst_sections[0].mean_gap, kGap);
  std::map<std::uint16_t, std::vector<format::MemoryAccessRecord>> by_thread;
  for (const auto& access : collected.accesses_seen) by_thread[access.thread].push_back(access);
  ASSERT_EQ(by_thread.size(), static_cast<std::size_t>(kThreads)) << "every thread has bursts";
  for (const auto& [thread, accesses] : by_thread) {
    std::vector<std::uint64_t> bursts;  // lengths
    std::uint64_t covered = 0;          // recorded and skipped
    for (std::size_t i = 0; i < accesses.size(); ++i) {
      const std::uint64_t skipped = format::skipped_before(accesses[i]);
      covered += 1 + skipped;
      if (i == 0 || skipped > 0) {
        bursts.push_back(0);
      } else {
        // Within a burst the thread's accesses are consecutive: the next element each time.
        ASSERT_EQ(accesses[i].address, accesses[i - 1].address + 8) << "thread " << thread << " record " << i;
      }
      ++bursts.back();
      if (i > 0 && skipped > 0) {
        // The gap skipped exactly the accesses between the two records.
        ASSERT_EQ((accesses[i].address - accesses[i - 1].address) / 8, skipped + 1) << "thread " << thread;
        ASSERT_LE(skipped + 1, 2 * kGap) << "a gap longer than twice its mean";
      }
    }
    for (std::size_t b = 0; b + 1 < bursts.size(); ++b)
      ASSERT_EQ(bursts[b], kBurst) << "thread " << thread << " burst " << b << " of " << bursts.size();
    // Up to the last record, every access is accounted for; after it, at most one period.
    EXPECT_LE(covered, kAccesses);
    EXPECT_GE(covered + kBurst + 2 * kGap, kAccesses) << "thread " << thread;
  }
}

}  // namespace
}  // namespace parperf::test
