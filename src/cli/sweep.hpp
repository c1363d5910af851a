// `parperf run --sweep 1,2,4,8 [--repeat R] [--np] -- ./app`: the program measured at each processor
// count, R times, into one sweep directory, then `parperf predict` on it.
//
// A count is a number of OpenMP threads (OMP_NUM_THREADS, and PARPERF_SWEEP_PROCESSORS for programs
// that size their own thread pools) or, with --np, of MPI ranks. The repetitions take turns (every
// count once, then every count again) so that a machine that slows down during the sweep spreads
// its drift over all counts instead of biasing the last ones. Each run is an ordinary run directory
// `p<count>-r<repetition>` whose run.json records its point of the sweep.
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

#include "cli/predict_options.hpp"
#include "cli/run_program.hpp"

namespace parperf::cli {

struct SweepOptions {
  std::vector<int> counts;  // --sweep: ascending, distinct
  int repeat = 1;           // --repeat
  PredictOptions predict;   // for the prediction printed at the end
};

// Adds --sweep, --repeat and --max-procs to `run`.
void add_sweep_options(CLI::App& run, SweepOptions& options);

// The counts of "1,2,4,8": throws std::invalid_argument in the user's terms for anything else.
std::vector<int> parse_sweep_counts(const std::string& text);

// The --param values "name=value" as a map; throws std::invalid_argument for one without a name.
std::map<std::string, std::string> parse_parameters(const std::vector<std::string>& items);

// Makes every run of the sweep (a progress line each on stderr), then prints the prediction.
// Returns 0, or the status of the first run that failed (the sweep stops there).
int run_sweep(const RunOptions& options, const SweepOptions& sweep);

}  // namespace parperf::cli
