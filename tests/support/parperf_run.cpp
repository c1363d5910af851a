#include "support/parperf_run.hpp"

#include "support/artifacts.hpp"

namespace parperf::test {

ProcessResult measure(const std::filesystem::path& run_directory, const std::vector<std::string>& program,
                      const ProcessOptions& options) {
  std::vector<std::string> argv = {parperf_command().string(), "run", "-q", "-o",
                                   run_directory.string(),     "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  return run_process(argv, options);
}

}  // namespace parperf::test
