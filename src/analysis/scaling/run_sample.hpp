// What one analysed run contributes to a scaling study (`parperf predict`): its processor count, its
// problem parameters, and per interval the execution time and the lost-time components whose growth
// the study models one by one.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "analysis/run_data.hpp"

namespace parperf::analysis::scaling {

// The losses of DESIGN.md section 4 that a study models apart, in processor-seconds (sums over the
// processors, as the report gives them): a loss that grows with p is what stops the scaling.
enum class LossComponent {
  communication,             // message passing and one-sided calls
  idle,                      // processors that finished early
  insufficient_parallelism,  // sequential and replicated code
  synchronization,           // OpenMP desync and waiting at barriers, locks, critical sections
  load_imbalance,            // potential: an uneven share of the work
};
inline constexpr LossComponent kLossComponents[] = {
    LossComponent::communication, LossComponent::idle, LossComponent::insufficient_parallelism,
    LossComponent::synchronization, LossComponent::load_imbalance};

struct IntervalSample {
  std::string key;  // the path of identities from the program: equal in every run of one program
  IntervalIdentity identity;
  std::uint32_t level = 0;
  double execution_time = 0;  // s: max over processors
  std::map<LossComponent, double> losses;
};

struct RunSample {
  std::string directory;
  double processors = 1;
  std::string unit;             // "threads", "ranks": what a processor is in this run
  std::int64_t repetition = 0;  // of a sweep; 0 when unknown
  std::map<std::string, std::string> parameters;
  std::vector<IntervalSample> intervals;  // the program first, then the tree in order
};

// The sample of an analysed run. The processor count is the sweep's (run.json) when the run is part
// of one, else the number of processors the program interval had in the analysis.
RunSample sample_run(const RunData& run, const Analysis& analysis);

}  // namespace parperf::analysis::scaling
