// How busy the machine was while a test ran, for the failure messages of the tests that need idle
// cores: a thread that computes (rather than sleeps) for a wall-clock time of known length ends late
// when other processes take its core, and such a test must say that the machine, not parperf, may be
// to blame: "the machine was busy: 2 cores, load average 3.10; while the test ran other processes
// kept 0.95 cores busy, the test and its programs 1.02".
#pragma once

#include <string>

namespace parperf::test {

class MachineLoad {
 public:
  MachineLoad();  // starts watching

  // The machine since construction, in words: busy when other processes kept a fifth of a core or
  // more busy, or the load average exceeded the cores.
  std::string describe() const;

 private:
  double start_wall_ = 0;  // CLOCK_MONOTONIC seconds
  double start_busy_ = 0;  // CPU seconds of every process (/proc/stat), 0 when unreadable
  double start_own_ = 0;   // CPU seconds of this process and its waited-for children
};

}  // namespace parperf::test
