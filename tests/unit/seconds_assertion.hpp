// An assertion on computed times that says, in the user's terms, which figure is wrong and why the
// expected value is what it is: "idle time 0.02 s, expected 0.12 s: thread 0 waits 120 ms".
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace parperf::testing_support {

// Computed characteristics are exact up to floating-point rounding.
inline constexpr double kExact = 1e-9;

inline ::testing::AssertionResult seconds_are(const char* what, double actual, double expected,
                                              const std::string& why = "") {
  if (std::fabs(actual - expected) <= kExact) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << " " << actual << " s, expected " << expected << " s" << (why.empty() ? "" : ": " + why);
}

}  // namespace parperf::testing_support
