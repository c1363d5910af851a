// The ring that carries a traced thread's samples from its sample handler to the trace writer
// (runtime/sample_ring.hpp): samples come out in the order they went in, a full ring counts what it
// refuses as lost (by weight) and keeps what it has, and under many producers pushing at a high rate
// from signal handlers while one consumer drains them all, nothing is lost that is not counted, nothing
// is duplicated and nothing is torn (also under ThreadSanitizer and AddressSanitizer: label tsan).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/sample_ring.hpp"

namespace parperf::runtime {
namespace {

using format::TraceSample;

TEST(SampleRing, SamplesComeOutInTheOrderTheyWentIn) {
  SampleRing* ring = create_sample_ring(8);
  ASSERT_NE(ring, nullptr);
  TraceSample out[8];
  for (std::uint64_t round = 0; round < 5; ++round) {  // across the wrap of the indices
    for (std::uint32_t i = 0; i < 5; ++i) EXPECT_TRUE(ring->push({round * 10 + i, i, 1}));
    EXPECT_EQ(ring->size(), 5u);
    ASSERT_EQ(ring->pop(out, 8), 5u);
    for (std::uint32_t i = 0; i < 5; ++i) EXPECT_EQ(out[i], (TraceSample{round * 10 + i, i, 1}));
  }
  EXPECT_EQ(ring->pop(out, 8), 0u) << "an empty ring gives nothing";
  EXPECT_EQ(ring->lost(), 0u);
}

TEST(SampleRing, AFullRingCountsRefusedSamplesAsLostByWeightAndKeepsWhatItHas) {
  SampleRing* ring = create_sample_ring(5);
  ASSERT_NE(ring, nullptr);
  ASSERT_EQ(ring->capacity(), 8u) << "capacity is rounded up to a power of two";
  for (std::uint64_t i = 0; i < 8; ++i) EXPECT_TRUE(ring->push({i, 1, 1}));
  EXPECT_FALSE(ring->push({8, 1, 3})) << "the ninth sample finds no room";
  EXPECT_FALSE(ring->push({9, 1, 1}));
  EXPECT_EQ(ring->lost(), 4u) << "a refused sample of weight 3 is 3 lost periods";
  TraceSample out[3];
  ASSERT_EQ(ring->pop(out, 3), 3u) << "the consumer takes at most what it asks for";
  EXPECT_EQ(out[0].ticks, 0u) << "the oldest first: what was refused never displaced what was kept";
  EXPECT_TRUE(ring->push({10, 1, 1})) << "room again once the consumer has taken some";
  EXPECT_EQ(ring->size(), 6u);
}

// The stress: every producer thread is interrupted by its own timer at 20 kHz of elapsed time, and
// its handler pushes a sample numbered in sequence (ticks), as the sample handler does; one consumer
// drains every ring meanwhile. Per ring: what came out plus what was lost is what went in, in order.
constexpr int kProducers = 12;
constexpr std::uint64_t kPushesEach = 4000;

struct Producer {
  SampleRing* ring = nullptr;
  std::atomic<std::uint64_t> pushed{0};  // the handler's count (it alone writes it)
  std::atomic<bool> done{false};
  timer_t timer{};
};

thread_local Producer* tl_producer = nullptr;

void on_timer(int, siginfo_t*, void*) {
  Producer* p = tl_producer;
  if (!p || p->done.load(std::memory_order_relaxed)) return;
  const std::uint64_t n = p->pushed.load(std::memory_order_relaxed);
  if (n == kPushesEach) return;
  p->ring->push({n + 1, static_cast<std::uint32_t>(n % 97), 1});
  p->pushed.store(n + 1, std::memory_order_release);
}

TEST(SampleRing, ManyProducersAtAHighRateLoseNothingUncountedAndDuplicateNothing) {
  struct sigaction action {};
  action.sa_sigaction = on_timer;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  const int signal = SIGRTMIN + 3;
  ASSERT_EQ(sigaction(signal, &action, nullptr), 0);

  std::vector<Producer> producers(kProducers);
  for (Producer& p : producers) {
    p.ring = create_sample_ring(64);  // small: the consumer's pauses make it overflow now and then
    ASSERT_NE(p.ring, nullptr);
  }
  std::atomic<int> finished{0};
  std::vector<std::thread> threads;
  for (Producer& p : producers) {
    threads.emplace_back([&p, &finished, signal] {
      sigevent event{};
      event.sigev_notify = SIGEV_THREAD_ID;
      event.sigev_signo = signal;
      event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
      tl_producer = &p;
      ASSERT_EQ(timer_create(CLOCK_MONOTONIC, &event, &p.timer), 0);
      itimerspec period{};
      period.it_interval.tv_nsec = 50'000;  // 20 kHz
      period.it_value = period.it_interval;
      timer_settime(p.timer, 0, &period, nullptr);
      while (p.pushed.load(std::memory_order_acquire) < kPushesEach) {
      }
      timer_delete(p.timer);
      p.done.store(true);
      tl_producer = nullptr;
      finished.fetch_add(1);
    });
  }
  std::vector<std::uint64_t> popped(kProducers, 0), last(kProducers, 0);
  std::vector<int> disorder(kProducers, 0);
  TraceSample out[16];
  auto drain = [&] {
    for (int i = 0; i < kProducers; ++i)
      while (const std::uint32_t n = producers[i].ring->pop(out, 16))
        for (std::uint32_t k = 0; k < n; ++k) {
          disorder[i] += out[k].ticks <= last[i] || out[k].node != (out[k].ticks - 1) % 97;
          last[i] = out[k].ticks;
          ++popped[i];
        }
  };
  while (finished.load() < kProducers) {
    drain();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  for (auto& t : threads) t.join();
  drain();
  for (int i = 0; i < kProducers; ++i) {
    EXPECT_EQ(popped[i] + producers[i].ring->lost(), kPushesEach)
        << "producer " << i << ": " << popped[i] << " samples came out and " << producers[i].ring->lost()
        << " were counted lost, of " << kPushesEach << " pushed";
    EXPECT_EQ(disorder[i], 0) << "producer " << i << ": samples out of order, repeated or torn";
  }
}

}  // namespace
}  // namespace parperf::runtime
