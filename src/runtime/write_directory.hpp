// The directory the runtime writes its files into, held open.
#pragma once

#include <sys/types.h>

#include <atomic>

namespace parperf::runtime {

// The directory the runtime writes into, opened once (made first when missing) and then written
// relative to its descriptor (openat, renameat, unlinkat): whoever owns its parent may swap the
// directory for a symbolic link while the program runs, and a run by root would then write its files
// wherever that points. The descriptor lies above the program's usual low range; should the program
// close it (closefrom in a daemon), the path is opened again only when it is still the same
// directory. Async-signal-safe (the final profile is written from fatal-signal handlers).
class WriteDirectory {
 public:
  // A descriptor of `path`, or -errno (EPERM for a directory another user owns, ELOOP for a link).
  int open(const char* path) noexcept;

 private:
  std::atomic<int> fd_{-1};
  std::atomic<bool> known_{false};
  dev_t device_ = 0;
  ino_t inode_ = 0;
};

}  // namespace parperf::runtime
