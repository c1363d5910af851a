#include "cli/pipe_stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace parperf::cli {

namespace {

// One read of a pipe returns at most what the pipe holds (1 MiB, as `parperf locality` sizes it).
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

}  // namespace

PipeStreamBuffer::PipeStreamBuffer(int fd, std::FILE* copy, std::size_t max_buffered)
    : fd_(fd), copy_(copy), max_buffered_(max_buffered), pump_([this] { pump(); }) {
  setg(nullptr, nullptr, nullptr);
}

PipeStreamBuffer::~PipeStreamBuffer() {
  drain();
  pump_.join();
}

void PipeStreamBuffer::pump() {
  std::unique_ptr<char[]> buffer;
  for (;;) {
    if (!buffer) buffer = spare_chunk();
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer.get(), kChunkBytes);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) break;
    const auto size = static_cast<std::size_t>(n);
    bytes_read_.fetch_add(size, std::memory_order_release);
    if (copy_ != nullptr && !copy_failed_.load(std::memory_order_relaxed) &&
        std::fwrite(buffer.get(), 1, size, copy_) != size)
      copy_failed_.store(true, std::memory_order_release);
    Chunk chunk;
    if (size >= kChunkBytes / 2) {
      chunk = {std::move(buffer), size, kChunkBytes};
    } else {
      chunk = {std::make_unique_for_overwrite<char[]>(size), size, size};
      std::memcpy(chunk.bytes.get(), buffer.get(), size);
    }
    std::unique_lock lock(mutex_);
    // A chunk is queued even into a full buffer when the buffer is empty, so that any chunk fits.
    emptied_.wait(
        lock, [&] { return discarding_ || buffered_ == 0 || buffered_ + chunk.capacity <= max_buffered_; });
    if (discarding_) {
      if (!buffer && chunk.capacity == kChunkBytes) buffer = std::move(chunk.bytes);
      continue;
    }
    buffered_ += chunk.capacity;
    peak_buffered_ = std::max(peak_buffered_, buffered_);
    chunks_.push_back(std::move(chunk));
    filled_.notify_one();
  }
  std::lock_guard lock(mutex_);
  ended_ = true;
  filled_.notify_all();
}

std::unique_ptr<char[]> PipeStreamBuffer::spare_chunk() {
  std::lock_guard lock(mutex_);
  if (!spare_.empty()) {
    std::unique_ptr<char[]> chunk = std::move(spare_.back());
    spare_.pop_back();
    return chunk;
  }
  ++chunks_allocated_;
  return std::make_unique_for_overwrite<char[]>(kChunkBytes);  // not cleared: read() fills it
}

PipeStreamBuffer::int_type PipeStreamBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  {
    std::unique_lock lock(mutex_);
    filled_.wait(lock, [&] { return !chunks_.empty() || ended_; });
    if (chunks_.empty()) return traits_type::eof();
    // The chunk just read goes back to the pump (the stream's get area now leaves it).
    if (current_.capacity == kChunkBytes) spare_.push_back(std::move(current_.bytes));
    current_ = std::move(chunks_.front());
    chunks_.pop_front();
    buffered_ -= current_.capacity;
    emptied_.notify_one();
  }
  setg(current_.bytes.get(), current_.bytes.get(), current_.bytes.get() + current_.size);
  return traits_type::to_int_type(*gptr());
}

void PipeStreamBuffer::drain() {
  std::unique_lock lock(mutex_);
  discarding_ = true;
  chunks_.clear();
  buffered_ = 0;
  emptied_.notify_all();
  filled_.wait(lock, [&] { return ended_; });
  setg(nullptr, nullptr, nullptr);
}

std::size_t PipeStreamBuffer::peak_buffered() const {
  std::lock_guard lock(mutex_);
  return peak_buffered_;
}

std::size_t PipeStreamBuffer::chunks_allocated() const {
  std::lock_guard lock(mutex_);
  return chunks_allocated_;
}

}  // namespace parperf::cli
