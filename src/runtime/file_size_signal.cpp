#include "runtime/file_size_signal.hpp"

#include <pthread.h>
#include <time.h>

namespace parperf::runtime {
namespace {

sigset_t file_size_only() noexcept {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGXFSZ);
  return set;
}

bool file_size_signal_pending() noexcept {
  sigset_t pending;
  sigemptyset(&pending);
  return sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
}

}  // namespace

FileSizeSignalHeld::FileSizeSignalHeld() noexcept {
  const sigset_t block = file_size_only();
  sigemptyset(&saved_mask_);
  pthread_sigmask(SIG_BLOCK, &block, &saved_mask_);
  pending_before_ = file_size_signal_pending();
}

FileSizeSignalHeld::~FileSizeSignalHeld() {
  if (!pending_before_ && file_size_signal_pending()) {
    // Raised by our own write: consume it, so unblocking does not deliver it to the program.
    const sigset_t ours = file_size_only();
    const timespec no_wait{0, 0};
    sigtimedwait(&ours, nullptr, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &saved_mask_, nullptr);
}

}  // namespace parperf::runtime
