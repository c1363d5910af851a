#include "report/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::Characteristics;
using analysis::Comparative;
using analysis::Figure;

// Losses below this share of total time are noise (timer reads, scheduling), not a finding.
constexpr double kSignificantLoss = 0.01;

std::string explain_idle(const Characteristics& c, const Comparative& comparative, const std::string& share) {
  double within = c.idle_within_processes;
  double between = c.idle_time - within;
  if (within > between) {
    return fmt::format(
        "idle time is {} of total: threads inside a process finish at different times "
        "(load imbalance between threads; --unit thread shows each thread)",
        share);
  }
  const analysis::Extreme& execution = comparative[Figure::execution_time];
  std::string who = "one processor";
  if (execution.min_processor && execution.max_processor) {
    who = fmt::format("processor {} finishes {} before processor {}", *execution.min_processor,
                      format_duration(execution.max - execution.min), *execution.max_processor);
  }
  // When the processors' productive times differ about as much as their execution times, the
  // early ones simply had less work; otherwise the slow one spent its extra time losing it.
  const char* cause = c.load_imbalance >= 0.5 * between
                          ? "load imbalance"
                          : "the slowest processor's extra time is itself lost time";
  return fmt::format("idle time is {} of total: {} ({})", share, who, cause);
}

}  // namespace

std::string diagnose(const Characteristics& c, const Comparative& comparative) {
  if (c.processors == 0) return "not executed";
  if (c.total_time <= 0) return "no time recorded";
  if (c.lost_time < kSignificantLoss * c.total_time) {
    return fmt::format("no significant loss: efficiency {}", format_percent(c.efficiency));
  }
  enum class Loss { idle, insufficient_parallelism, communication, waiting };
  std::array<std::pair<double, Loss>, 4> losses = {
      {{c.idle_time, Loss::idle},
       {c.insufficient_parallelism, Loss::insufficient_parallelism},
       {c.communication, Loss::communication},
       {c.waiting, Loss::waiting}}};
  // Stable on ties, so the order above decides between equal losses.
  auto largest = std::max_element(losses.begin(), losses.end(),
                                  [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string share = format_percent(largest->first / c.total_time);
  switch (largest->second) {
    case Loss::idle:
      return explain_idle(c, comparative, share);
    case Loss::insufficient_parallelism:
      return fmt::format(
          "insufficient parallelism is {} of total: work runs on one processor while the others "
          "wait, or is repeated on every processor",
          share);
    case Loss::communication:
      return fmt::format("communication is {} of total: {} waiting for partners, {} in call overhead", share,
                         format_duration(c.communication_real_sync), format_duration(c.communication_starts));
    case Loss::waiting:
      return fmt::format(
          "OpenMP waiting is {} of total: at barriers, locks, critical sections and ordered regions", share);
  }
  return {};
}

}  // namespace parperf::report
