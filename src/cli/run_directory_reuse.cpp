#include "cli/run_directory_reuse.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

#include "format/run_directory.hpp"
#include "format/trace_records.hpp"
#include "report/printable_text.hpp"

namespace parperf::cli {
namespace {

// The directory, open and locked against the other ranks of a job while it is checked. A -o that is
// a symbolic link is followed: claim_directory (output_directory.hpp) has checked it is the user's.
class LockedDirectory {
 public:
  explicit LockedDirectory(const std::filesystem::path& directory)
      : fd_(open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ < 0) return;
    while (flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~LockedDirectory() {
    if (fd_ >= 0) close(fd_);  // closing releases the lock
  }
  LockedDirectory(const LockedDirectory&) = delete;
  LockedDirectory& operator=(const LockedDirectory&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

std::vector<std::string> names_in(int directory_fd) {
  std::vector<std::string> names;
  const int listing_fd = dup(directory_fd);
  if (listing_fd < 0) return names;
  DIR* listing = fdopendir(listing_fd);
  if (listing == nullptr) {
    close(listing_fd);
    return names;
  }
  while (const dirent* entry = readdir(listing)) names.emplace_back(entry->d_name);
  closedir(listing);
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_marker(int directory_fd) {
  const int fd = openat(directory_fd, kJobMarkerName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return "";
  char text[512];
  const ssize_t n = read(fd, text, sizeof text);
  close(fd);
  return n > 0 ? std::string(text, static_cast<std::size_t>(n)) : "";
}

void write_marker(int directory_fd, const std::filesystem::path& directory, const std::string& job_id) {
  const int fd =
      openat(directory_fd, kJobMarkerName, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0 || write(fd, job_id.data(), job_id.size()) != static_cast<ssize_t>(job_id.size())) {
    const int error = errno;
    if (fd >= 0) close(fd);
    throw std::system_error(error, std::generic_category(),
                            fmt::format("cannot mark {} as this job's run directory", directory.string()));
  }
  close(fd);
}

// Removes an earlier run's file or, for a rank's locality results, directory.
void remove_run_file(int directory_fd, const std::filesystem::path& directory, const std::string& name) {
  std::error_code error;
  if (unlinkat(directory_fd, name.c_str(), 0) == 0 || errno == ENOENT) return;
  if (errno != EISDIR)
    error = std::error_code(errno, std::generic_category());
  else if (std::filesystem::remove_all(directory / name, error); !error)
    return;
  throw std::system_error(
      error, fmt::format("cannot remove the earlier run's {} from {}", name, directory.string()));
}

bool has_run_name(const std::string& name, const char* prefix, const char* suffix) {
  return name.starts_with(prefix) && name.find(suffix, std::string(prefix).size()) != std::string::npos;
}

}  // namespace

bool is_run_file(const std::string& name) {
  return name == format::kRunInfoFileName || name == format::kLocalityFileName ||
         name.starts_with(format::kLocalityRankPrefix) ||
         has_run_name(name, format::kProfilePrefix, format::kProfileSuffix) ||
         has_run_name(name, format::kTracePrefix, format::kTraceSuffix);
}

void take_run_directory(const std::filesystem::path& directory, const std::string& job_id, bool replace) {
  const LockedDirectory locked(directory);
  if (locked.fd() < 0) return;
  if (!job_id.empty() && read_marker(locked.fd()) == job_id) return;  // a sibling rank took it
  std::vector<std::string> earlier;
  for (const std::string& name : names_in(locked.fd()))
    if (is_run_file(name)) earlier.push_back(name);
  if (!earlier.empty() && !replace) {
    const std::string more =
        earlier.size() > 1 ? fmt::format(" and {} more", earlier.size() - 1) : std::string();
    throw RunDirectoryInUse(fmt::format(
        "refusing to write into {}: it holds an earlier run ({}{}); name another run directory with -o, "
        "or add --force to replace that run",
        report::printable(directory.string()), earlier.front(), more));
  }
  for (const std::string& name : earlier) remove_run_file(locked.fd(), directory, name);
  if (job_id.empty())
    unlinkat(locked.fd(), kJobMarkerName, 0);  // an earlier job's mark, which no process of this run reads
  else
    write_marker(locked.fd(), directory, job_id);
}

}  // namespace parperf::cli
