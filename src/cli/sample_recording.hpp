// `parperf run --sample[=HZ]` and `--sample-clock=cpu|wall`: call-path sampling, told to the runtime
// as PARPERF_SAMPLE_HZ and PARPERF_SAMPLE_CLOCK (docs/runtime.md).
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace parperf::cli {

inline constexpr int kDefaultSampleHz = 1000;

struct SampleOptions {
  std::optional<int> hz;      // --sample (kDefaultSampleHz) or --sample=HZ
  std::string clock = "cpu";  // --sample-clock
};

// Adds --sample and --sample-clock to `run`.
void add_sample_options(CLI::App& run, SampleOptions& options);

// The runtime's settings for these options (none without --sample).
std::vector<std::pair<std::string, std::string>> sample_settings(const SampleOptions& options);

// The options again, as arguments for the `parperf run` of each rank of a job (`--np`).
std::vector<std::string> sample_arguments(const SampleOptions& options);

}  // namespace parperf::cli
