// An input stream over a pipe's read end, optionally copying every byte it reads to a file: how
// `parperf locality` scores a running program's accesses as they come (and keeps the stream with
// --save-trace) without a trace file in between.
//
// A thread of its own (the pump) empties the pipe into memory as fast as the program fills it, and
// the stream's reader (the analysis) takes the chunks from there: the program and the analysis run
// at the same time, so that a sampled run costs about the longer of the two, not their sum. A
// `--sampled` program writes its trace in bursts (each 96 MiB by default) and then nothing for a long
// gap: with the pipe's 1 MiB alone the program waited for the analysis of every burst and the
// analysis waited for the program during every gap.
//
// The memory between them is bounded (max_buffered): when the analysis falls that far behind, the
// pump stops reading and the program's writes block until it catches up. Nothing is ever dropped,
// since dropped accesses would make the scores lie; the cost of a slow analysis is then time again.
//
// The pump reads into 1 MiB chunks and hands them over as they are; the stream gives each back once
// read, and the pump reads into it again. It copied every read into memory of its own before: a
// quarter of its CPU (0.29 -> 0.22 s for the 300 MB of bench/locality's sampled run, 2 % of the
// whole run's). A read of less than half a chunk is still copied into memory of its size, so that
// the memory held stays near the bytes held.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <streambuf>
#include <thread>
#include <vector>

namespace parperf::cli {

class PipeStreamBuffer : public std::streambuf {
 public:
  // 256 MiB: more than two bursts of the default length (docs/locality.md).
  static constexpr std::size_t kDefaultMaxBuffered = std::size_t{256} << 20;

  // Reads `fd` (not closed here) on a thread of its own, holding at most about `max_buffered` bytes
  // that the stream has not yet given out; writes a copy to `copy` when it is not null.
  PipeStreamBuffer(int fd, std::FILE* copy, std::size_t max_buffered = kDefaultMaxBuffered);
  // Waits for the pipe's end (after discarding what is left, as drain() does).
  ~PipeStreamBuffer() override;
  PipeStreamBuffer(const PipeStreamBuffer&) = delete;
  PipeStreamBuffer& operator=(const PipeStreamBuffer&) = delete;

  // Discards the rest of the pipe up to its end, so that a writer blocked on it can go on to its end.
  void drain();

  // Both final once the pipe has ended (after drain()).
  bool copy_failed() const { return copy_failed_.load(std::memory_order_acquire); }
  std::uint64_t bytes_read() const { return bytes_read_.load(std::memory_order_acquire); }
  // The most memory held at once for bytes read but not yet given out (a chunk counts as what it
  // allocates).
  std::size_t peak_buffered() const;
  // The 1 MiB chunks the pump allocated: reused, they are about max_buffered / 1 MiB at most, however
  // long the stream.
  std::size_t chunks_allocated() const;

 protected:
  int_type underflow() override;

 private:
  // A chunk of the stream in memory: `size` bytes at `bytes`, `capacity` allocated.
  struct Chunk {
    std::unique_ptr<char[]> bytes;
    std::size_t size = 0;
    std::size_t capacity = 0;
  };

  void pump();
  std::unique_ptr<char[]> spare_chunk();

  int fd_;
  std::FILE* copy_;
  std::size_t max_buffered_;
  std::atomic<bool> copy_failed_ = false;
  std::atomic<std::uint64_t> bytes_read_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable filled_;   // a chunk was queued, or the pipe ended
  std::condition_variable emptied_;  // a chunk was taken, or the rest is to be discarded
  std::deque<Chunk> chunks_;
  std::vector<std::unique_ptr<char[]>> spare_;  // full chunks the stream has read, to be filled again
  std::size_t chunks_allocated_ = 0;
  std::size_t buffered_ = 0;
  std::size_t peak_buffered_ = 0;
  bool ended_ = false;
  bool discarding_ = false;

  Chunk current_;  // the chunk the stream is reading
  std::thread pump_;
};

}  // namespace parperf::cli
