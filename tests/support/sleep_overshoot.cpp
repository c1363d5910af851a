#include "support/sleep_overshoot.hpp"

#include <gtest/gtest.h>

#include <cstdio>

namespace parperf::test {

double sleep_overshoot(const ProcessResult& result) {
  double seconds = -1;
  for (const auto& line : lines_of(result.err)) std::sscanf(line.c_str(), "sleep overshoot: %lf s", &seconds);
  if (seconds >= 0) return seconds;
  ADD_FAILURE() << "the program did not say how late its sleeps ended (\"sleep overshoot: S s\" on stderr)\n"
                << describe(result);
  return 0;
}

}  // namespace parperf::test
