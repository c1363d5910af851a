// Where the build put what the scenario tests run. Each scenario's own programs come as the macros
// PARPERF_PROGRAM_<TARGET> defined by parperf_add_scenario_test (tests/support/CMakeLists.txt).
#pragma once

#include <filesystem>

namespace parperf::test {

std::filesystem::path parperf_command();  // build/bin/parperf
std::filesystem::path runtime_library();  // build/lib/libparperf.so

}  // namespace parperf::test
