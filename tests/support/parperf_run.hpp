// Measuring a program the way users do: `parperf run -q -o <run directory> -- <program...>`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace parperf::test {

// Runs `program` (its path, then its arguments) under `parperf run -q`, writing `run_directory`.
ProcessResult measure(const std::filesystem::path& run_directory, const std::vector<std::string>& program,
                      const ProcessOptions& options = {});

}  // namespace parperf::test
