// A FIFO for the tests of readers that must refuse one without waiting on it. A reader that opens
// it for reading anyway blocks until a writer comes (and then reads to the writer's end): a helper
// thread opens and closes the writing end whenever a reader is waiting, so such a reader gets an
// empty file — a wrong answer the test reports — instead of hanging until ctest's timeout.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

namespace parperf::test {

class UnblockedFifo {
 public:
  explicit UnblockedFifo(std::filesystem::path path) : path_(std::move(path)) {
    if (mkfifo(path_.c_str(), 0600) != 0)
      throw std::system_error(errno, std::generic_category(), "mkfifo " + path_.string());
    unblocker_ = std::jthread([this](std::stop_token stop) {
      while (!stop.stop_requested()) {
        // Succeeds only while a reader has the FIFO open (ENXIO otherwise).
        const int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) ::close(fd);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
  }
  ~UnblockedFifo() {
    unblocker_.request_stop();
    unblocker_.join();
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  UnblockedFifo(const UnblockedFifo&) = delete;
  UnblockedFifo& operator=(const UnblockedFifo&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::jthread unblocker_;
};

}  // namespace parperf::test
