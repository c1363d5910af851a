// Ground truth by construction for `parperf diff`: the same program in two versions, chosen by its
// first argument, and at two thread counts.
//   run_diff_program before   "setup" 20 ms, "solve" 200 ms
//   run_diff_program after    "setup" 20 ms, "solve" 50 ms, then "refine" 30 ms (new in this version)
//   run_diff_program threads N   N threads share 240 ms of work in "work": 240/N ms each
// The work is sleeping (common/burn.h), so the lengths hold when other processes compete for the
// cores.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "common/burn.h"
#include "parperf/parperf.hpp"

namespace {

void versions(bool after) {
  {
    PARPERF_SCOPE("setup");
    sleep_for_ms(20);
  }
  {
    PARPERF_SCOPE("solve");
    sleep_for_ms(after ? 50 : 200);
  }
  if (after) {
    PARPERF_SCOPE("refine");
    sleep_for_ms(30);
  }
}

void share_of_work(int ms) {
  PARPERF_SCOPE("work");
  sleep_for_ms(ms);
}

void threads(int count) {
  std::vector<std::thread> team;
  for (int i = 0; i < count; ++i) team.emplace_back(share_of_work, 240 / count);
  for (std::thread& thread : team) thread.join();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "before" || mode == "after") {
    versions(mode == "after");
  } else if (mode == "threads" && argc > 2 && std::atoi(argv[2]) > 0) {
    threads(std::atoi(argv[2]));
  } else {
    std::fprintf(stderr, "usage: run_diff_program before|after|threads N\n");
    return 2;
  }
  std::printf("done\n");
  print_sleep_overshoot();
  return 0;
}
