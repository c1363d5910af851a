#include "cli/sample_recording.hpp"

namespace parperf::cli {

void add_sample_options(CLI::App& run, SampleOptions& options) {
  run.add_option("--sample", options.hz,
                 "Sample every thread's call path HZ times a second of its CPU time (default 1000), without "
                 "rebuilding the program: `parperf report --functions`, `--folded`")
      ->type_name("HZ")
      ->expected(0, 1)
      ->default_str(std::to_string(kDefaultSampleHz))
      ->check(CLI::Range(1, 100000));
  run.add_option("--sample-clock", options.clock,
                 "What the sampling timers count: 'cpu' (a thread's CPU time, the default) or 'wall' "
                 "(elapsed time: waiting threads are sampled too)")
      ->type_name("cpu|wall")
      ->check(CLI::IsMember({"cpu", "wall"}));
}

std::vector<std::pair<std::string, std::string>> sample_settings(const SampleOptions& options) {
  if (!options.hz) return {};
  return {{"PARPERF_SAMPLE_HZ", std::to_string(*options.hz)}, {"PARPERF_SAMPLE_CLOCK", options.clock}};
}

std::vector<std::string> sample_arguments(const SampleOptions& options) {
  if (!options.hz) return {};
  return {"--sample=" + std::to_string(*options.hz), "--sample-clock", options.clock};
}

}  // namespace parperf::cli
