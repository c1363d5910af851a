// The name of a parameterised OpenMP scenario test's instance: the compiler its program was built with,
// given as (clang build, gcc build) in that order.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace parperf::test {

inline std::string clang_or_gcc(const testing::TestParamInfo<const char*>& param) {
  return param.index == 0 ? "clang" : "gcc";
}

}  // namespace parperf::test
