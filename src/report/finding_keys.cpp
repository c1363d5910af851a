#include "report/finding_keys.hpp"

namespace parperf::report {

using analysis::FindingKind;
using analysis::Remedy;

std::string_view rule_key(FindingKind kind) {
  switch (kind) {
    case FindingKind::not_executed:
      return "not_executed";
    case FindingKind::no_time_recorded:
      return "no_time_recorded";
    case FindingKind::no_significant_loss:
      return "no_significant_loss";
    case FindingKind::idle_within_processes:
      return "idle_within_processes";
    case FindingKind::idle_between_processors:
      return "idle_between_processors";
    case FindingKind::preemption:
      return "preemption";
    case FindingKind::insufficient_parallelism:
      return "insufficient_parallelism";
    case FindingKind::communication:
      return "communication";
    case FindingKind::desync:
      return "desync";
    case FindingKind::openmp_waiting:
      return "openmp_waiting";
    case FindingKind::collective_arrival:
      return "collective_arrival";
    case FindingKind::off_cpu:
      return "off_cpu";
    case FindingKind::unbalanced_barrier:
      return "unbalanced_barrier";
    case FindingKind::late_arrival_barrier:
      return "late_arrival_barrier";
    case FindingKind::critical_contention:
      return "critical_contention";
    case FindingKind::lock_contention:
      return "lock_contention";
    case FindingKind::ordered_wait:
      return "ordered_wait";
    case FindingKind::barrier_arrival:
      return "barrier_arrival";
    case FindingKind::task_wait:
      return "task_wait";
    case FindingKind::synchronization_loss:
      return "synchronization_loss";
    case FindingKind::mpi_collective_arrival:
      return "mpi_late_rank";
    case FindingKind::mpi_waits_for_partner:
      return "mpi_late_partner";
    case FindingKind::mpi_call_cost:
      return "mpi_call_cost";
    case FindingKind::sequential_code:
      return "sequential_code";
    case FindingKind::amdahl_limit:
      return "amdahl_limit";
    case FindingKind::startup:
      return "startup";
    case FindingKind::mpi_setup:
      return "mpi_setup";
    case FindingKind::poor_spatial_locality:
      return "poor_spatial_locality";
    case FindingKind::threads_off_cpu:
      return "threads_off_cpu";
    case FindingKind::unbalanced_loop:
      return "unbalanced_loop";
    case FindingKind::interval_loss:
      return "interval_loss";
    case FindingKind::delay_cause:
      return "delay_cause";
  }
  return "unknown";
}

std::string_view remedy_key(Remedy remedy) {
  switch (remedy) {
    case Remedy::dynamic_schedule:
      return "dynamic_schedule";
    case Remedy::cost_aware_partition:
      return "cost_aware_partition";
    case Remedy::shorten_critical_section:
      return "shorten_critical_section";
    case Remedy::fewer_threads_than_cores:
      return "fewer_threads_than_cores";
    case Remedy::unit_stride_access:
      return "unit_stride_access";
    case Remedy::none:
      break;
  }
  return "none";
}

}  // namespace parperf::report
