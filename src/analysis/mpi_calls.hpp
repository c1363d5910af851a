// The MPI calls of an interval, as the report lists them: one row per (rank, call site) and a table
// per communication class (DESIGN.md section 4: "each characteristic is also given per
// collective/communication class"). Both cover the interval's subtree, like its characteristics.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/interval_tree.hpp"
#include "analysis/mpi_classes.hpp"

namespace parperf::analysis {

// Seconds; the figures of one call site on one rank, summed over its threads. A management call
// (MPI_Init, MPI_Comm_split, ...) has no real sync and no starts: it is not communication.
struct MpiCallFigures {
  OperationIdentity identity;
  MpiClass mpi_class = MpiClass::point_to_point;
  std::int64_t rank = 0;
  std::uint64_t count = 0;
  double time = 0;
  double real_sync = 0;
  double starts = 0;
  double synchronization = 0;
  double time_variation = 0;
  double overlap = 0;
  std::uint64_t bytes = 0;
  std::int64_t partner_min = format::kNoPartner;
  std::int64_t partner_max = format::kNoPartner;
  std::uint64_t partner_set = 0;  // bit (rank mod 64) per partner
  // The last call on rank 0's clock, seconds since rank 0 started; none when not recorded.
  std::optional<double> last_begin;
  std::optional<double> last_end;

  // Distinct partners; a lower bound when the run has 64 ranks or more (the set folds rank mod 64).
  int partners() const { return std::popcount(partner_set); }
};

// The MPI operations of interval `interval` and everything nested in it, by rank, then by site.
std::vector<MpiCallFigures> mpi_calls(const IntervalTree& tree, std::size_t interval);

struct CommunicationClassFigures {
  MpiClass mpi_class = MpiClass::point_to_point;
  std::uint64_t count = 0;
  double time = 0;
  double real_sync = 0;
  double starts = 0;
  double synchronization = 0;
  double time_variation = 0;
  double overlap = 0;
  std::uint64_t bytes = 0;
};

// The calls summed per communication class (over processors), in kCommunicationClasses order; only
// the classes that have calls. Management calls are in no class.
std::vector<CommunicationClassFigures> communication_classes(const std::vector<MpiCallFigures>& calls);

}  // namespace parperf::analysis
