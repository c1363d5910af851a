// A run directory named with -o that already holds a run. Writing a second run into it would lose
// the first, or mix the two: a 1-process run leaves a 4-rank run's profile.1-3.ppf and traces beside
// its own, and the report then fails or, worse, adds them up. So `parperf run` refuses such a
// directory before the program starts, unless asked to replace the run (--force), when it removes
// the earlier run's files first.
//
// The ranks of one MPI job (`mpirun -np 4 parperf run -o DIR ...`) each run a parperf that shares
// nothing with the others but DIR, and start at slightly different times: a late rank can find the
// trace files of its siblings already there. The first rank to take the directory (under a lock on
// it) writes the job's id into it (kJobMarkerName); a rank that finds its own job's id there is a
// sibling and goes on, and --force removes the earlier run exactly once, before any rank writes.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace parperf::cli {

inline constexpr const char* kJobMarkerName = ".parperf-job";

// A run directory holding an earlier run, without --force; what() says which and what to do.
class RunDirectoryInUse : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether `name` is one of the files a run writes into its directory (run.json, profiles, traces,
// their temporary files, locality results).
bool is_run_file(const std::string& name);

// Takes `directory` for a new run. `job_id`: the id the ranks of this run's MPI job share, empty for
// a process that is not one rank of a job. Throws RunDirectoryInUse when the directory holds a run of
// another job (or any run, for a single process) and `replace` is false; with `replace`, removes
// that run's files (and nothing else). A directory it cannot open is left to the writer.
void take_run_directory(const std::filesystem::path& directory, const std::string& job_id, bool replace);

}  // namespace parperf::cli
