// Everything the analysis reads from one run directory: the decoded profiles and run.json.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "format/profile.hpp"
#include "format/run_info.hpp"

namespace parperf::analysis {

struct RunData {
  std::filesystem::path directory;
  std::vector<format::Profile> profiles;    // sorted by rank, at most one per rank
  std::vector<std::string> profile_files;   // file name of profiles[i] ("profile.0.ppf")
  std::int64_t world_size = 0;              // processes the run had, as its profiles say
  std::optional<format::RunInfo> run_info;  // run.json; empty when absent or unusable (a warning says why)
  std::vector<std::string> warnings;        // problems tolerated by --partial, and oddities worth saying
  // Ranks of the run that left no profile file at all (aborted, crashed, killed), ascending; at most
  // kMaxListedMissingRanks of them (a damaged world size could claim millions).
  std::vector<std::int64_t> missing_ranks;
  std::int64_t missing_rank_count = 0;  // all of them
};

inline constexpr std::size_t kMaxListedMissingRanks = 4096;

}  // namespace parperf::analysis
