#include "runtime/write_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "runtime/file_sink.hpp"

namespace parperf::runtime {
namespace {

// Above the descriptors a program usually holds; lower when RLIMIT_NOFILE allows no more.
constexpr int kHighDescriptor = 512;

}  // namespace

int WriteDirectory::open(const char* path) noexcept {
  const int held = fd_.load(std::memory_order_acquire);
  struct stat st {};
  if (held >= 0 && fstat(held, &st) == 0 && st.st_dev == device_ && st.st_ino == inode_) return held;
  if (const int error = make_directories(path); error != 0) return -error;
  int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
      (known_.load(std::memory_order_acquire) && (st.st_dev != device_ || st.st_ino != inode_))) {
    close(fd);
    return -EPERM;  // another user's, or no longer the directory the run began in
  }
  if (const int high = fcntl(fd, F_DUPFD_CLOEXEC, kHighDescriptor); high >= 0) {
    close(fd);
    fd = high;
  } else if (fd <= 2) {  // the program closed its standard streams: never take their place
    const int above = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    fd = above;
    if (fd < 0) return -errno;
  }
  if (!known_.load(std::memory_order_acquire)) {  // the first open: every later one must match it
    device_ = st.st_dev;
    inode_ = st.st_ino;
  }
  int expected = held;
  if (!fd_.compare_exchange_strong(expected, fd, std::memory_order_acq_rel)) {
    close(fd);  // another thread opened it first
    return expected;
  }
  known_.store(true, std::memory_order_release);
  return fd;
}

}  // namespace parperf::runtime
