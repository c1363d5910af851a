// The scheduling noise a scenario program met: how much later than their deadlines its sleeps ended,
// in all, which the program prints on stderr as "sleep overshoot: S s" (tests/scenarios/common/burn.h).
// A figure that a late wake-up lengthens may exceed its constructed value by that much, and no more.
#pragma once

#include "support/process.hpp"

namespace parperf::test {

// The seconds from the program's line; a test failure, and 0, when the program printed none.
double sleep_overshoot(const ProcessResult& result);

}  // namespace parperf::test
