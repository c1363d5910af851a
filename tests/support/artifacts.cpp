#include "support/artifacts.hpp"

namespace parperf::test {

std::filesystem::path parperf_command() { return PARPERF_TEST_COMMAND; }
std::filesystem::path runtime_library() { return PARPERF_TEST_RUNTIME; }

}  // namespace parperf::test
