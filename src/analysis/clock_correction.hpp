// Puts every rank's time stamps on rank 0's clock (DESIGN.md section 5).
//
// Each rank's stamps count nanoseconds since its own start, on its own clock. At MPI_Init and at
// MPI_Finalize the MPI collector measures each rank r's offset to rank 0 by ping-pong and keeps the
// exchange with the smallest round trip: r records when it sent and when it got the answer, rank 0
// records when it answered (its own ClockSync record for r). Assuming the answer left rank 0 half
// way through the round trip, o = master − (send + recv) / 2 at r's local time s = (send + recv) / 2.
// Between and beyond the two exchanges the clocks are assumed to drift linearly:
//   m(t) = t + o_init + (o_finalize − o_init) / (s_finalize − s_init) · (t − s_init).
// With only the init exchange the offset is constant; without any (rank 0 itself, or data lost with
// a crashed rank) the stamps stay as they are, and the others' warnings say which ranks are affected.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "format/profile.hpp"

namespace parperf::analysis {

struct RankClock {
  std::int64_t rank = 0;
  bool corrected = false;                 // false: identity (rank 0, or nothing to correct with)
  std::optional<double> offset_init;      // ns to add at the init exchange, when measured
  std::optional<double> offset_finalize;  // ns to add at the finalize exchange, when measured
  double drift = 0;                       // dimensionless: ns of offset gained per ns of local time
  // How far each measured offset can be from the truth: half its exchange's round trip (rank 0's
  // reading fell between the rank's send and receive), and what the two give the drift. A busy machine
  // that delayed an exchange widens them.
  std::optional<double> error_init, error_finalize;  // ns
  double drift_error = 0;                            // dimensionless
  // The line m(t) goes through: the offset at the local time `anchor` (ns), from the init exchange,
  // or from the finalize exchange when only that one was measured.
  double offset = 0;
  double anchor = 0;

  // `t` (ns since this rank's start) as ns since rank 0's start on rank 0's clock. May be negative
  // for a stamp taken before rank 0 started.
  double apply(double t) const { return corrected ? t + offset + drift * (t - anchor) : t; }
};

class ClockCorrection {
 public:
  // The clock of `rank`: identity when nothing is known of it.
  const RankClock& of(std::int64_t rank) const;
  double apply(std::int64_t rank, double t) const { return of(rank).apply(t); }

  // One entry per rank whose profile has an mpi section, and per other rank but 0 of a run whose
  // processes have no MPI (aligned by their start times), by rank.
  std::map<std::int64_t, RankClock> clocks;
  std::vector<std::string> warnings;
};

// A pure function of the decoded profiles (at most one per rank). Processes without an mpi section
// (OpenSHMEM PEs) exchange no clock readings: their clocks are aligned to rank 0's by the
// CLOCK_REALTIME stamps of their starts (exact on one host; across hosts as close as their time
// synchronization), without drift and without warnings.
ClockCorrection correct_clocks(const std::vector<format::Profile>& profiles);

}  // namespace parperf::analysis
