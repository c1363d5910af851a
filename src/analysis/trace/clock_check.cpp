#include "analysis/trace/clock_check.hpp"

namespace parperf::analysis {

ClockCheck check_clocks(const Communication& communication) {
  ClockCheck check;
  for (const Message& m : communication.messages) {
    ++check.messages;
    const double early = m.send.start_ns - m.receive.end_ns;
    if (early <= 0) continue;
    if (check.violations++ == 0 || early > check.worst.early_ns)
      check.worst = {m.send.rank, m.receive.rank, early};
  }
  return check;
}

}  // namespace parperf::analysis
