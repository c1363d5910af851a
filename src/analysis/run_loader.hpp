// Loads a run directory: every profile.<rank>.ppf and, when present, run.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>

#include "analysis/run_data.hpp"

namespace parperf::analysis {

// A run directory that cannot be analysed. The message is one line that names the file and the
// problem: "profile.1.ppf: missing (the run has 2 processes)".
class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // Turn problems with single profile files (undecodable, duplicate rank, impossible values) into
  // warnings and analyse what is left. Still an error when no profile is left.
  bool partial = false;
};

// Throws LoadError. Problems of the directory itself (missing, not a directory, unreadable, no
// profile files at all) are errors even with `partial`. A rank without a profile file is never an
// error: a process that aborted, crashed or was killed leaves none while the others do, and the
// report of the others is what the user needs then. It is a warning, and listed in `missing_ranks`.
// So is a damaged or foreign run.json (then `run_info` is empty). Only regular files are read.
RunData load_run(const std::filesystem::path& dir, const LoadOptions& options = {});

}  // namespace parperf::analysis
