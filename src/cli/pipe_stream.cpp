#include "cli/pipe_stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

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
  std::vector<char> buffer(kChunkBytes);
  for (;;) {
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer.data(), buffer.size());
    } while (n < 0 && errno == EINTR);
    if (n <= 0) break;
    const auto size = static_cast<std::size_t>(n);
    bytes_read_.fetch_add(size, std::memory_order_release);
    if (copy_ != nullptr && !copy_failed_.load(std::memory_order_relaxed) &&
        std::fwrite(buffer.data(), 1, size, copy_) != size)
      copy_failed_.store(true, std::memory_order_release);
    std::unique_lock lock(mutex_);
    // A chunk is queued even into a full buffer when the buffer is empty, so that any chunk fits.
    emptied_.wait(lock, [&] { return discarding_ || buffered_ == 0 || buffered_ + size <= max_buffered_; });
    if (discarding_) continue;
    chunks_.emplace_back(buffer.begin(), buffer.begin() + n);
    buffered_ += size;
    peak_buffered_ = std::max(peak_buffered_, buffered_);
    filled_.notify_one();
  }
  std::lock_guard lock(mutex_);
  ended_ = true;
  filled_.notify_all();
}

PipeStreamBuffer::int_type PipeStreamBuffer::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  {
    std::unique_lock lock(mutex_);
    filled_.wait(lock, [&] { return !chunks_.empty() || ended_; });
    if (chunks_.empty()) return traits_type::eof();
    current_ = std::move(chunks_.front());
    chunks_.pop_front();
    buffered_ -= current_.size();
    emptied_.notify_one();
  }
  setg(current_.data(), current_.data(), current_.data() + current_.size());
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

}  // namespace parperf::cli
