// The `parperf` command: parses the command line and hands over to a subcommand.
#include "analysis/trace/analysis_heap.hpp"
#include "cli/application.hpp"

int main(int argc, char** argv) {
  parperf::analysis::keep_freed_memory_for_reuse();  // report, whatif: the trace analysis reuses its memory
  return parperf::cli::run_command_line(argc, argv);
}
