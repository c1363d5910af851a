#include "cli/output_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

#include <fmt/core.h>

namespace parperf::cli {
namespace {

// Far more than runs of one program start in one second.
constexpr int kMaxSuffix = 1000;

ForeignDirectory foreign(const std::filesystem::path& directory, const char* what, uid_t owner) {
  return ForeignDirectory(fmt::format(
      "refusing to write into {}: it is {} that belongs to user {}, not to you (user {}); name another "
      "run directory with -o",
      directory.string(), what, owner, geteuid()));
}

}  // namespace

std::filesystem::path make_fresh_directory(const std::filesystem::path& name) {
  for (int suffix = 1; suffix <= kMaxSuffix; ++suffix) {
    const std::filesystem::path candidate =
        suffix == 1 ? name : std::filesystem::path(fmt::format("{}-{}", name.string(), suffix));
    // mkdir never follows a symbolic link at the name: a planted one is EEXIST like a directory.
    if (mkdir(candidate.c_str(), 0777) == 0) return candidate;
    if (errno != EEXIST) return name;
  }
  return name;
}

bool claim_directory(const std::filesystem::path& directory) {
  std::error_code ignored;
  const bool made = std::filesystem::create_directories(directory, ignored);
  struct stat link {};
  if (lstat(directory.c_str(), &link) != 0) return false;
  const uid_t me = geteuid();
  if (S_ISLNK(link.st_mode) && link.st_uid != me) throw foreign(directory, "a symbolic link", link.st_uid);
  struct stat target {};
  if (stat(directory.c_str(), &target) != 0 || !S_ISDIR(target.st_mode)) return false;
  if (target.st_uid != me) throw foreign(directory, "a directory", target.st_uid);
  return made;
}

HeldDirectory::HeldDirectory(const std::filesystem::path& directory)
    : fd_(open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) {}

HeldDirectory& HeldDirectory::operator=(HeldDirectory&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

HeldDirectory::~HeldDirectory() {
  if (fd_ >= 0) close(fd_);
}

std::filesystem::path HeldDirectory::path() const {
  return std::filesystem::path("/proc/self/fd") / std::to_string(fd_);
}

}  // namespace parperf::cli
