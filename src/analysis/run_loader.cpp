// Reading a run directory. The order of checks decides which problem a user sees first without
// --partial: the directory, then each file in rank order, then the consistency of the set (world
// size, duplicate ranks). With --partial every file-level problem is kept as a warning and the file
// is left out, so the report covers exactly the profiles that were trustworthy. Missing ranks are
// always only warnings: the files that exist are trustworthy, and a crashed rank is when a report
// is needed most.
#include "analysis/run_loader.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "analysis/profile_invariants.hpp"
#include "analysis/snapshot_skew.hpp"
#include "format/profile_files.hpp"
#include "format/profile_reader.hpp"
#include "format/regular_file.hpp"
#include "format/run_directory.hpp"
#include "format/run_info.hpp"

namespace parperf::analysis {
namespace {

namespace fs = std::filesystem;

// Without --partial the first problem ends the load; with it, problems become warnings.
class Problems {
 public:
  Problems(bool partial, std::vector<std::string>& warnings) : partial_(partial), warnings_(warnings) {}
  void report(std::string message) {
    if (!partial_) throw LoadError(message);
    warnings_.push_back(std::move(message));
  }
  // What the report must say whether --partial or not.
  void warn(std::string message) { warnings_.push_back(std::move(message)); }

 private:
  bool partial_;
  std::vector<std::string>& warnings_;
};

std::string profile_name(std::int64_t rank) {
  return fmt::format("{}{}{}", format::kProfilePrefix, rank, format::kProfileSuffix);
}

bool is_profile_name(std::string_view name) {
  std::string_view prefix = format::kProfilePrefix;
  std::string_view suffix = format::kProfileSuffix;
  return name.size() > prefix.size() + suffix.size() && name.starts_with(prefix) && name.ends_with(suffix);
}

void check_directory(const fs::path& dir) {
  std::error_code ec;
  fs::file_status status = fs::status(dir, ec);
  if (status.type() == fs::file_type::not_found) {
    throw LoadError(fmt::format("{}: no such directory", dir.string()));
  }
  if (ec) throw LoadError(fmt::format("{}: {}", dir.string(), ec.message()));
  if (!fs::is_directory(status)) throw LoadError(fmt::format("{}: not a directory", dir.string()));
}

// Profile files in rank order (numbered names first, by number; then any others by name).
std::vector<std::string> list_profile_files(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (is_profile_name(name)) names.push_back(std::move(name));
  }
  if (ec) throw LoadError(fmt::format("{}: cannot list the directory: {}", dir.string(), ec.message()));
  auto order = [](const std::string& name) {
    std::optional<std::int64_t> rank = format::rank_of_profile_name(name);
    return std::pair(rank.value_or(INT64_MAX), name);
  };
  std::sort(names.begin(), names.end(), [&](const auto& a, const auto& b) { return order(a) < order(b); });
  return names;
}

// run.json holds the launcher's view of the run (command line, hosts, versions); the report can do
// without it (docs/format.md: it is optional). So a damaged run.json is a warning naming what is
// wrong, never the end of the report; the profiles are what the report is made of.
std::optional<format::RunInfo> read_run_info(const fs::path& dir, std::vector<std::string>& warnings) {
  try {
    return format::read_run_info(dir);
  } catch (const format::RunInfoError& error) {
    warnings.push_back(
        fmt::format("{}: {}; the report is made without it", format::kRunInfoFileName, error.what()));
    return std::nullopt;
  }
}

struct Decoded {
  std::string file;
  format::Profile profile;
};

std::vector<Decoded> decode_profiles(const fs::path& dir, const std::vector<std::string>& names,
                                     Problems& problems, std::set<std::int64_t>& reported_ranks) {
  std::vector<Decoded> decoded;
  for (const std::string& name : names) {
    std::optional<format::Profile> profile;
    try {
      profile = format::read_profile_file(dir / name);
    } catch (const format::FormatError& error) {
      if (auto rank = format::rank_of_profile_name(name)) reported_ranks.insert(*rank);
      // The reader names the file by the path it was given; every message here uses the bare file
      // name, the directory being said once in the report's header.
      std::string_view what = error.what();
      for (const std::string& prefix : {(dir / name).string() + ": ", name + ": "}) {
        if (what.starts_with(prefix)) {
          what.remove_prefix(prefix.size());
          break;
        }
      }
      problems.report(fmt::format("{}: {}", name, what));
    } catch (const std::exception& error) {
      if (auto rank = format::rank_of_profile_name(name)) reported_ranks.insert(*rank);
      problems.report(fmt::format("{}: {}", name, error.what()));
    }
    if (!profile) continue;
    for (format::Thread& thread : profile->threads)
      if (const SnapshotLift lift = lift_snapshot_skew(thread); lift.nodes > 0)
        problems.warn(
            fmt::format("{}: thread {} was running while the profile was written: the times of {} "
                        "intervals were raised to those of the intervals nested in them, read a "
                        "moment later (by {:.3g} s at most)",
                        name, thread.index, lift.nodes, static_cast<double>(lift.most_ns) * 1e-9));
    // Checksums prove the bytes are as written, not that the values can be: the characteristics
    // would turn an impossible one into a negative time or an efficiency far outside 0..1.
    if (auto impossible = find_impossible_value(*profile)) {
      if (auto rank = format::rank_of_profile_name(name)) reported_ranks.insert(*rank);
      problems.report(fmt::format("{}: impossible values: {}", name, *impossible));
      continue;
    }
    decoded.push_back({name, std::move(*profile)});
  }
  return decoded;
}

// Every profile states the run's process count; they must agree, and each rank must lie inside it.
std::int64_t check_world_size(std::vector<Decoded>& decoded, Problems& problems,
                              std::set<std::int64_t>& reported_ranks) {
  std::int64_t world = decoded.front().profile.process.world_size;
  const std::string first = decoded.front().file;  // a copy: the elements are moved below
  std::vector<Decoded> kept;
  for (Decoded& d : decoded) {
    const format::ProcessInfo& process = d.profile.process;
    if (process.world_size != world) {
      reported_ranks.insert(process.rank);
      problems.report(fmt::format("{}: says the run has {} processes, {} says {}", d.file, process.world_size,
                                  first, world));
    } else if (process.rank < 0 || process.rank >= world) {
      problems.report(
          fmt::format("{}: rank {} is outside the run's {} processes", d.file, process.rank, world));
    } else {
      kept.push_back(std::move(d));
    }
  }
  decoded = std::move(kept);
  return world;
}

void drop_duplicate_ranks(std::vector<Decoded>& decoded, Problems& problems) {
  std::stable_sort(decoded.begin(), decoded.end(), [](const Decoded& a, const Decoded& b) {
    return a.profile.process.rank < b.profile.process.rank;
  });
  std::vector<Decoded> kept;
  for (Decoded& d : decoded) {
    if (!kept.empty() && kept.back().profile.process.rank == d.profile.process.rank) {
      problems.report(fmt::format("{}: holds rank {}, which {} also holds", d.file, d.profile.process.rank,
                                  kept.back().file));
      continue;
    }
    kept.push_back(std::move(d));
  }
  decoded = std::move(kept);
}

// A rank whose file was rejected has been reported already; only silent gaps are new news.
void report_missing_ranks(const std::vector<Decoded>& decoded, std::int64_t world,
                          const std::set<std::int64_t>& reported_ranks, RunData& run) {
  std::set<std::int64_t> present;
  for (const Decoded& d : decoded) present.insert(d.profile.process.rank);
  std::int64_t missing_count = world - static_cast<std::int64_t>(present.size());
  for (std::int64_t rank : reported_ranks) {
    if (rank >= 0 && rank < world && present.count(rank) == 0) --missing_count;
  }
  if (missing_count <= 0) return;
  run.missing_rank_count = missing_count;
  // A corrupted world size could claim millions of ranks: list a bounded number, name a few.
  constexpr std::int64_t kNamed = 3;
  for (std::int64_t rank = 0; rank < world && run.missing_ranks.size() < kMaxListedMissingRanks; ++rank) {
    if (present.count(rank) || reported_ranks.count(rank)) continue;
    const auto named = static_cast<std::int64_t>(run.missing_ranks.size());
    run.missing_ranks.push_back(rank);
    if (named >= kNamed) continue;
    if (named == kNamed - 1 && missing_count > kNamed) {
      run.warnings.push_back(fmt::format("{} and {} more profiles: missing (the run has {} processes)",
                                         profile_name(rank), missing_count - kNamed, world));
    } else {
      run.warnings.push_back(
          fmt::format("{}: missing (the run has {} processes)", profile_name(rank), world));
    }
  }
}

// A renamed file is still usable: its content says which rank it holds.
void note_renamed_files(const std::vector<Decoded>& decoded, std::vector<std::string>& warnings) {
  for (const Decoded& d : decoded) {
    std::optional<std::int64_t> named = format::rank_of_profile_name(d.file);
    if (named != d.profile.process.rank) {
      warnings.push_back(fmt::format("{}: holds the profile of rank {}", d.file, d.profile.process.rank));
    }
  }
}

}  // namespace

RunData load_run(const fs::path& dir, const LoadOptions& options) {
  check_directory(dir);
  RunData run;
  run.directory = dir;
  Problems problems(options.partial, run.warnings);

  std::vector<std::string> names = list_profile_files(dir);
  if (names.empty()) {
    throw LoadError(fmt::format("{}: no profile files ({}<rank>{}) in this directory", dir.string(),
                                format::kProfilePrefix, format::kProfileSuffix));
  }
  std::set<std::int64_t> reported_ranks;
  std::vector<Decoded> decoded = decode_profiles(dir, names, problems, reported_ranks);
  run.run_info = read_run_info(dir, run.warnings);
  // A trace.<rank>.ppt that is a FIFO, a directory or a dangling link is never read; its rank's wait
  // states would just be missing.
  for (const format::LeftOutFile& file : format::traces_left_out(dir))
    run.warnings.push_back(
        fmt::format("{}: left out: {} (its rank's event trace is not read)", file.name, file.why));
  if (!decoded.empty()) {
    run.world_size = check_world_size(decoded, problems, reported_ranks);
    drop_duplicate_ranks(decoded, problems);
    report_missing_ranks(decoded, run.world_size, reported_ranks, run);
    note_renamed_files(decoded, run.warnings);
  }
  if (decoded.empty()) {
    throw LoadError(fmt::format("{}: no usable profile left: {}", dir.string(),
                                run.warnings.empty() ? std::string("none decoded") : run.warnings.front()));
  }
  for (Decoded& d : decoded) {
    run.profile_files.push_back(std::move(d.file));
    run.profiles.push_back(std::move(d.profile));
  }
  return run;
}

}  // namespace parperf::analysis
