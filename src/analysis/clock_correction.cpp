#include "analysis/clock_correction.hpp"

#include <fmt/format.h>

#include <cmath>

#include "analysis/rank_list.hpp"

namespace parperf::analysis {
namespace {

// One exchange as both sides saw it: the offset to add and the local time it was measured at.
struct Measurement {
  double offset = 0;
  double local = 0;
  double error = 0;  // half the exchange's round trip on the rank's clock
};

// The exchange with the smallest round trip among `records` of `rank` in `phase` (a writer keeps
// one per phase; should it keep several, the best is the one the method asks for).
const format::ClockSync* best_record(const std::vector<format::ClockSync>& records, std::int64_t rank,
                                     format::ClockPhase phase) {
  const format::ClockSync* best = nullptr;
  for (const format::ClockSync& c : records)
    if (c.rank == rank && c.phase == phase && (!best || c.round_trip_ns < best->round_trip_ns)) best = &c;
  return best;
}

std::optional<Measurement> measure(const format::MpiInfo& rank_side, const format::MpiInfo& master_side,
                                   std::int64_t rank, format::ClockPhase phase) {
  const format::ClockSync* own = best_record(rank_side.clock, rank, phase);
  const format::ClockSync* master = best_record(master_side.clock, rank, phase);
  if (!own || !master) return std::nullopt;
  // In doubles: the sum of two u64 stamps may not fit in a u64, and the offset may be negative.
  const double local = (static_cast<double>(own->send_ns) + static_cast<double>(own->recv_ns)) / 2;
  const double error = std::abs(static_cast<double>(own->recv_ns) - static_cast<double>(own->send_ns)) / 2;
  return Measurement{static_cast<double>(master->master_ns) - local, local, error};
}

RankClock fit(std::int64_t rank, const std::optional<Measurement>& init,
              const std::optional<Measurement>& finalize) {
  RankClock clock;
  clock.rank = rank;
  const std::optional<Measurement>& first = init ? init : finalize;
  if (!first) return clock;
  clock.corrected = true;
  clock.offset = first->offset;
  clock.anchor = first->local;
  if (init) clock.offset_init = init->offset, clock.error_init = init->error;
  if (finalize) clock.offset_finalize = finalize->offset, clock.error_finalize = finalize->error;
  if (init && finalize) {
    // Exchanges in the wrong order or at the same moment (a damaged profile) give no drift to trust.
    if (finalize->local > init->local) {
      clock.drift = (finalize->offset - init->offset) / (finalize->local - init->local);
      clock.drift_error = (init->error + finalize->error) / (finalize->local - init->local);
    }
  }
  return clock;
}

}  // namespace

const RankClock& ClockCorrection::of(std::int64_t rank) const {
  static const RankClock identity{};
  auto it = clocks.find(rank);
  return it == clocks.end() ? identity : it->second;
}

// Processes without MPI (OpenSHMEM PEs, several processes of one job otherwise) exchange no clock
// readings; each counts from its own start. Their starts were stamped on CLOCK_REALTIME next to their
// clocks' origins: the difference puts them on rank 0's time line, exactly on one host (one
// realtime clock) and as well as NTP keeps hosts together otherwise. No drift is corrected.
void align_by_start_times(const std::vector<format::Profile>& profiles, ClockCorrection& result) {
  const format::Profile* first = nullptr;
  for (const format::Profile& p : profiles)
    if (p.process.rank == 0) first = &p;
  if (!first || first->process.start_unix_ns == 0) return;
  for (const format::Profile& p : profiles) {
    if (p.has_mpi || p.process.rank == 0 || p.process.start_unix_ns == 0) continue;
    RankClock clock;
    clock.rank = p.process.rank;
    clock.corrected = true;
    clock.offset = static_cast<double>(
        static_cast<std::int64_t>(p.process.start_unix_ns - first->process.start_unix_ns));
    clock.offset_init = clock.offset;
    result.clocks[clock.rank] = clock;
  }
}

ClockCorrection correct_clocks(const std::vector<format::Profile>& profiles) {
  ClockCorrection result;
  const format::Profile* master = nullptr;
  for (const format::Profile& p : profiles)
    if (p.has_mpi && p.process.rank == 0) master = &p;
  std::vector<std::int64_t> without_master, without_exchange;
  for (const format::Profile& p : profiles) {
    if (!p.has_mpi) continue;
    const std::int64_t rank = p.process.rank;
    RankClock clock;
    clock.rank = rank;
    if (rank != 0 && master) {
      clock = fit(rank, measure(p.mpi, master->mpi, rank, format::ClockPhase::init),
                  measure(p.mpi, master->mpi, rank, format::ClockPhase::finalize));
      if (!clock.corrected) without_exchange.push_back(rank);
    } else if (rank != 0) {
      without_master.push_back(rank);
    }
    result.clocks[rank] = clock;
  }
  if (!without_master.empty())
    result.warnings.push_back(fmt::format(
        "clocks of ranks {} not corrected: rank 0's profile, which holds the other side of every clock "
        "exchange, is missing or has no MPI data; their time stamps are compared uncorrected",
        rank_list(without_master)));
  if (!without_exchange.empty())
    result.warnings.push_back(fmt::format(
        "clocks of ranks {} not corrected: no clock exchange with rank 0 was recorded for them; their time "
        "stamps are compared uncorrected",
        rank_list(without_exchange)));
  align_by_start_times(profiles, result);
  return result;
}

}  // namespace parperf::analysis
