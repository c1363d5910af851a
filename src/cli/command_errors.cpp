#include "cli/command_errors.hpp"

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "report/printable_text.hpp"

namespace parperf::cli {

void report_errors_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const CLI::Error&) {
    throw;
  } catch (const std::exception& e) {  // LoadError names the file and what is wrong with it
    fmt::print(stderr, "parperf: {}\n", report::printable(e.what()));
    throw CLI::RuntimeError(1);
  }
}

}  // namespace parperf::cli
