#include "report/diagnosis.hpp"

#include <fmt/format.h>

#include "analysis/finding_thresholds.hpp"
#include "report/loop_balance_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using analysis::Finding;
using analysis::FindingKind;

std::string idle_between_text(const Finding& f, const std::string& share) {
  std::string who = "one processor";
  if (f.fastest_processor && f.slowest_processor) {
    who = fmt::format("processor {} finishes {} before processor {}", *f.fastest_processor,
                      format_duration(f.execution_spread), *f.slowest_processor);
  }
  const char* cause =
      f.imbalance_explains_idle ? "load imbalance" : "the slowest processor's extra time is itself lost time";
  return fmt::format("idle time is {} of total: {} ({})", share, who, cause);
}

std::string collective_text(const Finding& f) {
  std::string note = "; at collective operations and barriers";
  if (f.synchronization)
    note +=
        fmt::format(" processors arrive at different times (synchronization {}: load imbalance before them)",
                    format_duration(*f.synchronization));
  if (f.synchronization && f.time_variation) note += " and";
  if (f.time_variation)
    note += fmt::format(" leave at different times (time variation {})", format_duration(*f.time_variation));
  return note;
}

// Whether the wait for the slowest is explained by its work, in the numbers the rule judged by.
std::string work_balance_text(const Finding& f) {
  const double balance = f.evidence_value("productive_max_over_mean");
  if (balance <= 0) return "unbalanced work or a late thread";
  if (balance > analysis::kBalancedMaxOverMean)
    return fmt::format("unbalanced work: productive time max/mean {:.2f}", balance);
  return fmt::format("productive times balanced, max/mean {:.2f}: a late thread, not more work", balance);
}

std::string_view loss_words(FindingKind explained) {
  switch (explained) {
    case FindingKind::desync:
      return "desync time";
    case FindingKind::openmp_waiting:
      return "OpenMP waiting";
    default:
      return "idle time";
  }
}

std::string preemption_text(const Finding& f, const std::string& share) {
  return fmt::format(
      "{} is {} of total, yet the processors' productive times are balanced (max/mean {:.2f}) and only {} "
      "of the time inside ran on a CPU: preemption, threads were off the CPU (machine oversubscribed or "
      "other load) while the others waited",
      loss_words(f.explains), share, f.evidence_value("productive_max_over_mean"),
      format_percent(f.on_cpu_share));
}

std::string finding_text(const Finding& f) {
  const std::string share = format_percent(f.share);
  switch (f.kind) {
    case FindingKind::not_executed:
      return "not executed";
    case FindingKind::no_time_recorded:
      return "no time recorded";
    case FindingKind::no_significant_loss:
      return fmt::format("no significant loss: efficiency {}", format_percent(f.efficiency));
    case FindingKind::idle_within_processes:
      return fmt::format(
          "idle time is {} of total: threads inside a process finish at different times "
          "(load imbalance between threads; --unit thread shows each thread)",
          share);
    case FindingKind::idle_between_processors:
      return idle_between_text(f, share);
    case FindingKind::insufficient_parallelism:
      return fmt::format(
          "insufficient parallelism is {} of total: work runs on one processor while the others "
          "wait, or is repeated on every processor",
          share);
    case FindingKind::communication:
      return fmt::format(
          "communication is {} of total: {} waiting for partners (late senders and receivers, early arrival "
          "at collectives), {} in the calls themselves (overhead and transfer; see the SRC points)",
          share, format_duration(f.real_sync), format_duration(f.starts));
    case FindingKind::desync:
      return fmt::format(
          "desync time is {} of total: threads wait at the end of work-sharing constructs or parallel "
          "regions for the slowest thread ({}; see the SRC points)",
          share, work_balance_text(f));
    case FindingKind::preemption:
      return preemption_text(f, share);
    case FindingKind::openmp_waiting:
      return fmt::format(
          "OpenMP waiting is {} of total: at barriers, locks, critical sections and ordered regions", share);
    case FindingKind::collective_arrival:
      return collective_text(f);
    case FindingKind::off_cpu:
      return fmt::format(
          "; only {} of the time inside ran on a CPU: threads were sleeping, blocked or waiting for I/O, "
          "or the machine is oversubscribed",
          format_percent(f.on_cpu_share));
    case FindingKind::unbalanced_loop:
      return "; " + unbalanced_loop_text(f);
    default:  // the run's main findings are not part of an interval's diagnosis
      return {};
  }
}

}  // namespace

std::string diagnosis_text(const std::vector<Finding>& diagnosis) {
  std::string text;
  for (const Finding& finding : diagnosis) text += finding_text(finding);
  return text;
}

}  // namespace parperf::report
