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

// The characteristics are wall-clock based, so a thread that sleeps or blocks in the interval
// counts as busy; its OS CPU time tells otherwise. Said only where the CPU-time reads, taken at most
// every PARPERF_CPU_SAMPLE_US (100 us) at interval boundaries, are dense enough to be trusted:
// entries lasting 2 ms or more on average.
constexpr double kMinMeanEntrySeconds = 0.002;
constexpr double kOnCpuShareWorthSaying = 0.5;

std::string off_cpu_note(const Characteristics& c, const Comparative& comparative) {
  const double processors = static_cast<double>(c.processors);
  const double time_inside = comparative[Figure::execution_time].mean * processors;
  const double entries = comparative[Figure::entries].mean * processors;
  const double on_cpu = c.os_cpu_user + c.os_cpu_sys;
  if (time_inside <= 0 || entries <= 0 || time_inside / entries < kMinMeanEntrySeconds) return {};
  // No CPU time at all means not measured (profiles built by other tools, huge sampling spacing)
  // far more often than threads that never ran: say nothing rather than guess.
  if (on_cpu <= 0 || on_cpu >= kOnCpuShareWorthSaying * time_inside) return {};
  return fmt::format(
      "; only {} of the time inside ran on a CPU: threads were sleeping, blocked or waiting for I/O, "
      "or the machine is oversubscribed",
      format_percent(on_cpu / time_inside));
}

std::string largest_loss(const Characteristics& c, const Comparative& comparative);

// Synchronization and time variation are potential losses, outside Lost time, so they never are the
// largest loss; yet processors arriving at collectives at different times is the usual cause of the
// communication loss of an MPI program. Said whenever it is significant.
std::string collective_note(const Characteristics& c) {
  const bool synchronization = c.synchronization >= kSignificantLoss * c.total_time;
  const bool variation = c.time_variation >= kSignificantLoss * c.total_time;
  if (!synchronization && !variation) return {};
  std::string note = "; at collective operations and barriers";
  if (synchronization)
    note +=
        fmt::format(" processors arrive at different times (synchronization {}: load imbalance before them)",
                    format_duration(c.synchronization));
  if (synchronization && variation) note += " and";
  if (variation)
    note += fmt::format(" leave at different times (time variation {})", format_duration(c.time_variation));
  return note;
}

}  // namespace

std::string diagnose(const Characteristics& c, const Comparative& comparative) {
  if (c.processors == 0) return "not executed";
  if (c.total_time <= 0) return "no time recorded";
  return largest_loss(c, comparative) + collective_note(c) + off_cpu_note(c, comparative);
}

namespace {

std::string largest_loss(const Characteristics& c, const Comparative& comparative) {
  if (c.lost_time < kSignificantLoss * c.total_time) {
    return fmt::format("no significant loss: efficiency {}", format_percent(c.efficiency));
  }
  enum class Loss { idle, insufficient_parallelism, communication, desync, waiting };
  std::array<std::pair<double, Loss>, 5> losses = {
      {{c.idle_time, Loss::idle},
       {c.insufficient_parallelism, Loss::insufficient_parallelism},
       {c.communication, Loss::communication},
       {c.desync, Loss::desync},
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
      return fmt::format(
          "communication is {} of total: {} waiting for partners (late senders and receivers, early arrival "
          "at collectives), {} in the calls themselves (overhead and transfer; see the SRC points)",
          share, format_duration(c.communication_real_sync), format_duration(c.communication_starts));
    case Loss::desync:
      return fmt::format(
          "desync time is {} of total: threads wait at the end of work-sharing constructs or parallel "
          "regions "
          "for the slowest thread (unbalanced work; see the SRC points)",
          share);
    case Loss::waiting:
      return fmt::format(
          "OpenMP waiting is {} of total: at barriers, locks, critical sections and ordered regions", share);
  }
  return {};
}

}  // namespace

}  // namespace parperf::report
