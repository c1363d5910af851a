// One measured run of a program, as `parperf run` makes it (run_command.cpp): what it is asked for,
// and the call that does it. `parperf run --sweep` (sweep.hpp) makes several through the same call.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/sample_recording.hpp"
#include "cli/trace_recording.hpp"
#include "format/run_info.hpp"

namespace parperf::cli {

// Exit statuses of parperf's own, following env(1) and timeout(1).
inline constexpr int kParperfFailed = 125;
inline constexpr int kCannotRun = 127;

// `--np` with no count: the counts of --sweep are numbers of ranks.
inline constexpr int kRanksOfTheSweep = -1;

struct RunOptions {
  std::string output;
  bool quiet = false;
  bool verbose = false;
  bool force = false;  // --force: replace the earlier run a -o directory holds (run_directory_reuse.hpp)
  std::string openmp_runtime = "auto";  // --openmp-runtime: auto, libomp or native
  int processes = 0;        // --np: start an MPI job of that many ranks (kRanksOfTheSweep: --sweep's)
  bool job_member = false;  // started by `parperf run --np`: the launcher writes run.json
  TraceOptions trace;
  SampleOptions sample;
  std::map<std::string, std::string> parameters;  // --param name=value, recorded in run.json
  std::optional<format::SweepPoint> sweep;        // set by --sweep for each run it makes
  std::vector<std::string> command;
};

// Runs the program once under the runtime and writes run.json; returns the program's exit status
// (128+N for signal N, kCannotRun, kParperfFailed). Throws std::runtime_error for a run directory it
// must not write into.
int run_program(const RunOptions& options);

}  // namespace parperf::cli
