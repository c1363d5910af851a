// The parts of one processor's time in an interval that DESIGN.md section 4 distinguishes beyond
// plain wall-clock time. The annotation API cannot observe any of them, so today every field is
// zero for a program measured through the annotation API only; the OpenMP collector's data fills
// the insufficient-parallelism, desync and waiting parts (openmp_attribution.hpp).
#pragma once

namespace parperf::analysis {

// Seconds, for one location or one processor in one interval.
struct TimeBreakdown {
  // Lost: work that is not parallel (sequential code while the others idle, replicated code).
  double insufficient_parallelism_user = 0;
  double insufficient_parallelism_sys = 0;
  // Lost: message passing and one-sided calls.
  double communication_real_sync = 0;  // waiting for the partner
  double communication_starts = 0;     // call overhead
  // Lost: OpenMP desynchronization: waiting at the end of work-sharing constructs and parallel
  // regions (implicit barriers; explicit barriers that end a chain of nowait constructs).
  double desync = 0;
  // Lost: other OpenMP waiting (explicit barriers, locks, critical, ordered, taskwait).
  double waiting = 0;
  // Productive time spent in the parallel runtime without waiting (Sys) and in I/O.
  double productive_sys = 0;
  double productive_io = 0;
  // Potential losses: reported beside, never added to lost time.
  double synchronization = 0;
  double time_variation = 0;
  double overlap = 0;
  // MPI start-up (MPI_Init, MPI_Init_thread) and shut-down (MPI_Finalize), with the waiting for
  // the other ranks inside them: never useful work, so neither productive nor lost, and taken out
  // of the interval's execution time (mpi_attribution.hpp).
  double startup = 0;
  double shutdown = 0;

  double lost() const {
    return insufficient_parallelism_user + insufficient_parallelism_sys + communication_real_sync +
           communication_starts + desync + waiting;
  }
  TimeBreakdown& operator+=(const TimeBreakdown& other);
  TimeBreakdown& operator*=(double factor);
};

inline TimeBreakdown& TimeBreakdown::operator+=(const TimeBreakdown& o) {
  insufficient_parallelism_user += o.insufficient_parallelism_user;
  insufficient_parallelism_sys += o.insufficient_parallelism_sys;
  communication_real_sync += o.communication_real_sync;
  communication_starts += o.communication_starts;
  desync += o.desync;
  waiting += o.waiting;
  productive_sys += o.productive_sys;
  productive_io += o.productive_io;
  synchronization += o.synchronization;
  time_variation += o.time_variation;
  overlap += o.overlap;
  startup += o.startup;
  shutdown += o.shutdown;
  return *this;
}

inline TimeBreakdown& TimeBreakdown::operator*=(double f) {
  insufficient_parallelism_user *= f;
  insufficient_parallelism_sys *= f;
  communication_real_sync *= f;
  communication_starts *= f;
  desync *= f;
  waiting *= f;
  productive_sys *= f;
  productive_io *= f;
  synchronization *= f;
  time_variation *= f;
  overlap *= f;
  startup *= f;
  shutdown *= f;
  return *this;
}

}  // namespace parperf::analysis
