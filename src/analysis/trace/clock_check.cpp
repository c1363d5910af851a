#include "analysis/trace/clock_check.hpp"

#include <tuple>

#include "analysis/trace/part_reductions.hpp"

namespace parperf::analysis {
namespace {

// The worst violation: the earliest receive before its send; of equally early ones, the lowest
// sender's and receiver's, whichever message came first (the same whatever part finds it).
bool worse(const ClockViolation& a, const ClockViolation& b) {
  return std::tie(a.early_ns, b.sender, b.receiver) > std::tie(b.early_ns, a.sender, a.receiver);
}

template <class Counted>
ClockCheck check(const Communication& communication, const Counted& counted) {
  ClockCheck check;
  for (const Message& m : communication.messages) {
    if (!counted(m)) continue;
    ++check.messages;
    const ClockViolation v{m.send.rank, m.receive.rank, m.send.start_ns - m.receive.end_ns};
    if (v.early_ns <= 0) continue;
    if (check.violations++ == 0 || worse(v, check.worst)) check.worst = v;
  }
  return check;
}

}  // namespace

ClockCheck check_clocks(const Communication& communication) {
  return check(communication, [](const Message&) { return true; });
}

ClockCheck check_clocks(const Communication& communication, const TraceRun& own, PartExchange& exchange) {
  // A message between two parts is on both: its receiver's part counts it.
  const ClockCheck mine =
      check(communication, [&](const Message& m) { return rank_trace(own, m.receive.rank) != nullptr; });
  ClockCheck run;
  for (const ClockCheck& each : gather_each(exchange, mine)) {
    run.messages += each.messages;
    if (each.violations == 0) continue;
    if (run.violations == 0 || worse(each.worst, run.worst)) run.worst = each.worst;
    run.violations += each.violations;
  }
  return run;
}

}  // namespace parperf::analysis
