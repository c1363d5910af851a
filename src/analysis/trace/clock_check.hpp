// The clock check of a traced run (DESIGN.md section 5): after correction no message may arrive
// before it was sent. A message whose receive ended before its send began shows that the clock
// correction failed between the two ranks (an offset mismeasured, a drift that was not linear), and
// every time comparison between them is off by at least that much. On a healthy run there is none.
#pragma once

#include <cstdint>

#include "analysis/trace/messages.hpp"
#include "analysis/trace/part_exchange.hpp"

namespace parperf::analysis {

struct ClockViolation {
  std::int64_t sender = 0;
  std::int64_t receiver = 0;
  double early_ns = 0;  // how long before the send began the receive ended
};

struct ClockCheck {
  std::uint64_t messages = 0;    // messages checked
  std::uint64_t violations = 0;  // received before they were sent
  ClockViolation worst;          // meaningful when violations > 0
};

ClockCheck check_clocks(const Communication& communication);
// The same by the parts of a run analysed by parts (graph_part.hpp), together: each checks the
// messages its ranks `own` received. The run's check, on every part.
ClockCheck check_clocks(const Communication& communication, const TraceRun& own, PartExchange& exchange);

}  // namespace parperf::analysis
