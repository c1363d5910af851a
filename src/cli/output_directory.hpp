// The directories `parperf run` and `parperf locality` write into. A default name is predictable
// (the program and the second it started; the job id under a launcher) and often lies in a shared
// directory: another user can create it first, or plant a symbolic link there, and a run by root
// would then write wherever that points. So a default directory is always made afresh, and one that
// exists already is used only when it belongs to the user running parperf.
#pragma once

#include <filesystem>
#include <stdexcept>

namespace parperf::cli {

// A run directory parperf must not write into; what() says whose it is.
class ForeignDirectory : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Makes a new directory `name`, or `name`-2, `name`-3, ... when that name is taken (by another run
// in the same second, or by anything planted there), and returns the one made. When no directory
// can be made (an unwritable working directory), returns `name` untouched: the runtime, which
// creates the run directory when it writes, then says why it cannot.
std::filesystem::path make_fresh_directory(const std::filesystem::path& name);

// A directory named by the user (-o) or shared by the ranks of one job: made (with its parents)
// when missing; when it exists it must be this user's. Returns whether it was made here. Throws
// ForeignDirectory for a directory, or a symbolic link, that belongs to another user. Other problems
// (a file in the way, no permission) are left to the writer, which names them when it cannot write.
bool claim_directory(const std::filesystem::path& directory);

// A run directory opened once, its name not followed when it is a symbolic link: `parperf run` opens
// it before the program starts and writes run.json relative to it, so a directory that whoever owns
// its parent swaps for a link during the run does not redirect run.json (the runtime does the same
// for the profiles). Not open (fd() < 0) when the directory did not exist or was a link.
class HeldDirectory {
 public:
  HeldDirectory() = default;
  explicit HeldDirectory(const std::filesystem::path& directory);
  HeldDirectory(HeldDirectory&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  HeldDirectory& operator=(HeldDirectory&& other) noexcept;
  HeldDirectory(const HeldDirectory&) = delete;
  HeldDirectory& operator=(const HeldDirectory&) = delete;
  ~HeldDirectory();

  int fd() const { return fd_; }
  // A path that names the opened directory itself, whatever now lies at its name (/proc/self/fd/N).
  std::filesystem::path path() const;

 private:
  int fd_ = -1;
};

}  // namespace parperf::cli
