// How a subcommand ends on an error: one line "parperf: <what is wrong>" on stderr and exit status 1
// (main.cpp turns CLI::RuntimeError into the status). Messages may quote names read from the files
// (an interval, a file, a user event), so they are printed through report::printable.
#pragma once

#include <functional>

namespace parperf::cli {

// Runs `work`; a std::exception other than CLI11's own (usage errors, --help) is reported as above
// and ends the command with status 1.
void report_errors_of(const std::function<void()>& work);

}  // namespace parperf::cli
