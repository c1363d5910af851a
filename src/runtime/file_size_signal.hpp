// The runtime's writes must never raise a signal in the program. A program that lowers
// RLIMIT_FSIZE (or runs under a shell's `ulimit -f`) would otherwise die of SIGXFSZ when the
// runtime writes its profile or trace past the limit: a different exit status, its last buffered
// output lost, a temporary file left behind. While a FileSizeSignalHeld exists, SIGXFSZ is blocked in
// the calling thread, so an over-long write fails with EFBIG (a write failure the writer warns of);
// the signal the kernel then left pending for this thread is taken back when it ends. The kernel
// directs SIGXFSZ at the writing thread, so no other thread of the program sees it.
// Async-signal-safe (the final profile is written from fatal-signal handlers too).
#pragma once

#include <signal.h>

namespace parperf::runtime {

class FileSizeSignalHeld {
 public:
  FileSizeSignalHeld() noexcept;
  ~FileSizeSignalHeld();
  FileSizeSignalHeld(const FileSizeSignalHeld&) = delete;
  FileSizeSignalHeld& operator=(const FileSizeSignalHeld&) = delete;

 private:
  sigset_t saved_mask_;
  bool pending_before_ = false;  // sent by someone else before we wrote: left for the program
};

}  // namespace parperf::runtime
