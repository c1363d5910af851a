#include "cli/command_errors.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <stdexcept>

#include "analysis/run_loader.hpp"
#include "cli/trace_source.hpp"
#include "report/printable_text.hpp"

namespace parperf::cli {
namespace {

// An error every process of an analysis job meets alike, from loading the run's files or from the
// options (the same on every process): said once, by the process that prints. A block that does not
// decode is met only by the process that decodes it, which says so.
bool met_by_every_process(const std::exception& e) {
  return dynamic_cast<const analysis::LoadError*>(&e) || dynamic_cast<const std::invalid_argument*>(&e);
}

}  // namespace

void report_errors_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {  // LoadError names the file and what is wrong with it
    if (trace_source().prints || !met_by_every_process(e))
      fmt::print(stderr, "parperf: {}\n", report::printable(e.what()));
    throw CLI::RuntimeError(1);
  }
}

}  // namespace parperf::cli
