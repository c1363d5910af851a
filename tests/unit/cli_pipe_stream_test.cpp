// The stream `parperf locality` reads a running program's accesses from: the pipe is emptied into
// memory while the analysis is busy, so that the program does not wait for it, up to a bound, beyond
// which the program waits and nothing is lost.
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <istream>
#include <string>
#include <thread>
#include <vector>

#include "cli/pipe_stream.hpp"

namespace parperf::cli {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

std::vector<char> pattern(std::size_t bytes) {
  std::vector<char> data(bytes);
  for (std::size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>((i * 131) ^ (i >> 12));
  return data;
}

// Everything the stream gives, read as the analysis reads it: in blocks (a character at a time took
// 40 s under ThreadSanitizer, every character an instrumented call).
std::vector<char> read_all(std::istream& in) {
  std::vector<char> read;
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) read.insert(read.end(), block, block + in.gcount());
  return read;
}

// Writes all of `data`, waiting for room in the pipe at most `patience_ms` each time; false when the
// pipe stayed full that long, which means nobody reads it.
bool write_all(int fd, const std::vector<char>& data, int patience_ms) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    pollfd room{fd, POLLOUT, 0};
    if (::poll(&room, 1, patience_ms) != 1) return false;
  }
  return true;
}

// The program: writes `data` with blocking writes, then ends (its end of the pipe closes).
std::thread write_and_close(int fd, const std::vector<char>& data) {
  return std::thread([fd, &data] {
    write_all(fd, data, -1);
    close(fd);
  });
}

// A sampled program writes a burst of tens of MiB at once while the analysis is still busy: the
// whole burst must leave the pipe without anyone reading the stream. (The pipe holds 64 KiB; the
// 30 s of patience are only there so that the old behaviour fails instead of hanging: an idle pump
// empties the pipe in microseconds.)
TEST(CliPipeStream, ABurstLeavesThePipeWhileTheAnalysisIsBusy) {
  int ends[2];
  ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
  ASSERT_EQ(fcntl(ends[1], F_SETFL, O_NONBLOCK), 0);
  PipeStreamBuffer stream(ends[0], nullptr, 64 * kMiB);
  const std::vector<char> burst = pattern(16 * kMiB);
  EXPECT_TRUE(write_all(ends[1], burst, 30000))
      << "the program would wait for the analysis: 16 MiB written with no one reading the stream "
         "stayed in the pipe";
  close(ends[1]);
  std::istream in(&stream);
  const std::vector<char> read = read_all(in);
  EXPECT_TRUE(read == burst) << "the stream gave " << read.size()
                             << " bytes, not the 16 MiB written in order";
  EXPECT_EQ(stream.bytes_read(), burst.size());
  close(ends[0]);
}

// When the analysis falls further behind than the bound, the program waits: every byte still arrives
// in order, and no more than the bound (plus the one chunk being queued) is held.
TEST(CliPipeStream, BeyondTheBoundTheWriterWaitsAndNothingIsLost) {
  int ends[2];
  ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
  const std::size_t bound = 2 * kMiB;
  PipeStreamBuffer stream(ends[0], nullptr, bound);
  const std::vector<char> data = pattern(24 * kMiB);
  std::thread writer = write_and_close(ends[1], data);
  std::istream in(&stream);
  const std::vector<char> read = read_all(in);
  writer.join();
  EXPECT_TRUE(read == data) << "the stream gave " << read.size() << " bytes, not the 24 MiB written in order";
  EXPECT_LE(stream.peak_buffered(), bound + kMiB) << "more memory held than the bound allows";
  close(ends[0]);
}

// With the pipe of `parperf locality` (1 MiB) and an analysis slower than the program, every read
// fills a whole chunk, and the pump reads into the chunks the stream has finished with instead of
// allocating new ones: a stream 32 times the bound passes through about bound / 1 MiB chunks, and no
// chunk is refilled while it is still being read (the bytes arrive as written).
TEST(CliPipeStream, ChunksAreReusedOnceReadAndTheirBytesArriveIntact) {
  int ends[2];
  ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
  ASSERT_GE(fcntl(ends[1], F_SETPIPE_SZ, static_cast<int>(kMiB)), static_cast<int>(kMiB));
  const std::size_t bound = 4 * kMiB;
  PipeStreamBuffer stream(ends[0], nullptr, bound);
  const std::vector<char> data = pattern(128 * kMiB);
  std::atomic<bool> written = false;
  std::thread writer([&] {
    write_all(ends[1], data, -1);
    written = true;
    close(ends[1]);
  });
  std::istream in(&stream);
  std::vector<char> read;
  char block[1 << 16];
  for (bool more = true; more;) {
    // The slow analysis: before each MiB it takes, the program has filled the pipe again.
    int waiting = 0;
    while (!written && ioctl(ends[0], FIONREAD, &waiting) == 0 && static_cast<std::size_t>(waiting) < kMiB)
      std::this_thread::yield();
    for (std::size_t taken = 0; more && taken < kMiB; taken += sizeof block) {
      in.read(block, sizeof block);
      read.insert(read.end(), block, block + in.gcount());
      more = in.gcount() > 0;
    }
  }
  writer.join();
  EXPECT_TRUE(read == data) << "the stream gave " << read.size()
                            << " bytes, not the 128 MiB written in order";
  EXPECT_LE(stream.peak_buffered(), bound + kMiB) << "more memory held than the bound allows";
  // At most the bound's chunks queued, one being read and one being filled.
  EXPECT_LE(stream.chunks_allocated(), bound / kMiB + 2)
      << "the pump allocated " << stream.chunks_allocated()
      << " chunks of 1 MiB for 128 MiB under a bound of " << bound / kMiB
      << " MiB: the chunks the stream read are not reused";
  close(ends[0]);
}

// drain() discards the rest, so that a program blocked on a full pipe can end.
TEST(CliPipeStream, DrainLetsABlockedWriterFinish) {
  int ends[2];
  ASSERT_EQ(pipe2(ends, O_CLOEXEC), 0);
  PipeStreamBuffer stream(ends[0], nullptr, kMiB);
  const std::vector<char> data = pattern(8 * kMiB);
  std::thread writer = write_and_close(ends[1], data);
  std::istream in(&stream);
  EXPECT_EQ(in.get(), static_cast<unsigned char>(data[0]));
  stream.drain();
  writer.join();
  EXPECT_EQ(stream.bytes_read(), data.size());
  close(ends[0]);
}

}  // namespace
}  // namespace parperf::cli
