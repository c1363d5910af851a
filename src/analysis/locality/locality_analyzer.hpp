// The locality engine (DESIGN.md section 6, Apex-Map method): feed it a stream of accesses, get the
// spatial and temporal locality scores with their histograms for the program, each thread and each
// function (conventions in locality_report.hpp and docs/locality.md).
//
// Per word access: the thread's stride window (spatial), the thread's exact reuse-distance tracker
// (temporal), then the counts of the thread and of the function. With sample_rate < 1 only words
// chosen by the SHARDS hash go through the trackers and counts (the window still sees every word,
// since strides need the unsampled neighbours); finish() scales counts and footprints by 1/R.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/locality/access.hpp"
#include "analysis/locality/deferred_inserts.hpp"
#include "analysis/locality/locality_options.hpp"
#include "analysis/locality/locality_report.hpp"
#include "analysis/locality/reuse_distance.hpp"
#include "analysis/locality/scatter_sample.hpp"
#include "analysis/locality/shards_sampler.hpp"
#include "analysis/locality/stride_window.hpp"
#include "analysis/locality/word_table.hpp"

namespace parperf::locality {

class LocalityAnalyzer {
 public:
  // Throws std::invalid_argument for options out of range (word_bytes not a power of two >= 2,
  // window or max_stride 0, log2_n outside 1..63, sample_rate outside (0, 1]).
  explicit LocalityAnalyzer(const LocalityOptions& options = {});
  ~LocalityAnalyzer();
  // Pending footprint insertions point into the analyzer's own sets.
  LocalityAnalyzer(const LocalityAnalyzer&) = delete;
  LocalityAnalyzer& operator=(const LocalityAnalyzer&) = delete;

  void add(const Access& access);
  // The same as add() on each access in order, faster: it prefetches the hash-table slots of the
  // accesses a few positions ahead, so that their memory round trips overlap.
  void add(std::span<const Access> accesses);

  // The report of everything added so far. Call once, at the end: it takes the scatter sample.
  LocalityReport finish();

 private:
  struct ThreadState;
  struct FunctionState;

  bool sampled(std::uint64_t word) const;
  void add(const Access& access, bool first_sampled);  // first_sampled: sampled(first word)
  ThreadState& thread_state(std::uint16_t thread);
  ThreadState& new_thread_state(std::uint16_t thread);
  FunctionState& function_state(std::uint32_t function);
  FunctionState& switch_function(std::uint32_t function);
  void record_word(ThreadState& thread, const Access& access, std::uint64_t word, bool first_word);
  LocalityHistograms scaled(const LocalityHistograms& raw, std::uint64_t footprint) const;

  LocalityOptions options_;
  unsigned word_shift_;
  ShardsSampler sampler_;
  double scale_rate_;  // the sampler's rate times the capturer's: counts are scaled by its inverse
  std::vector<std::unique_ptr<ThreadState>> threads_;  // indexed by thread
  std::unordered_map<std::uint32_t, FunctionState> functions_;
  FunctionState* last_function_ = nullptr;  // accesses of one function come in runs
  std::uint32_t last_function_id_ = 0;
  WordSet program_words_;              // for the program's footprint: threads may share words
  DeferredInserts footprint_inserts_;  // into program_words_ and the functions' sets
  ScatterSample scatter_;
  std::uint64_t accesses_ = 0;
};

}  // namespace parperf::locality
