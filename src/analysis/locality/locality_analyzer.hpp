// The locality engine (DESIGN.md section 6, Apex-Map method): feed it a stream of accesses, get the
// spatial and temporal locality scores with their histograms for the program, each thread and each
// function (conventions in locality_report.hpp and docs/locality.md).
//
// Per word access: the thread's stride window (spatial), the thread's exact reuse-distance tracker
// (temporal), then the counts of the thread and of the function. With sample_rate < 1 only words
// chosen by the SHARDS hash go through the trackers and counts (the window still sees every word,
// since strides need the unsampled neighbours); finish() scales counts and footprints by 1/R.
//
// Bursts (options.burst_length > 0, `parperf cc --sampled`): an access with a skipped count begins a
// new burst of its thread. Nothing is carried across the gap: the thread's window and reuse history
// start empty, the burst's first half (burst_warmup) only fills them, and its second half is counted,
// with strides and reuse distances exact within the burst. A thread's first access begins its first
// burst too. Distances longer than the warm-up's
// history are not seen (they count as cold), which is why the warm-up must span more accesses than
// the reuse times that matter (docs/locality.md). Each burst is scored apart for the uncertainty.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "analysis/locality/access.hpp"
#include "analysis/locality/burst_uncertainty.hpp"
#include "analysis/locality/deferred_inserts.hpp"
#include "analysis/locality/footprint_set.hpp"
#include "analysis/locality/locality_options.hpp"
#include "analysis/locality/locality_report.hpp"
#include "analysis/locality/reuse_distance.hpp"
#include "analysis/locality/scatter_sample.hpp"
#include "analysis/locality/shards_sampler.hpp"
#include "analysis/locality/stride_window.hpp"

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
  // counted: false in a burst's warm-up, which updates everything but the counts.
  void record_word(ThreadState& thread, const Access& access, std::uint64_t word, bool first_word,
                   bool counted);
  LocalityHistograms scaled(const LocalityHistograms& raw, std::uint64_t footprint) const;
  void begin_burst(ThreadState& thread);
  void end_burst(ThreadState& thread);

  LocalityOptions options_;
  unsigned word_shift_;
  ShardsSampler sampler_;
  double distance_rate_;  // the sampler's rate times the capturer's: distances are scaled by its inverse
  double scale_rate_;     // that times the bursts' counted share: counts are scaled by its inverse
  std::uint64_t warmup_;  // accesses at the start of each burst that are not counted
  // Bursts: the accesses counted, and those the threads made (recorded and skipped), whose ratio is
  // the counted share.
  std::uint64_t counted_accesses_ = 0;
  std::uint64_t made_accesses_ = 0;
  std::vector<BurstScore> burst_scores_;
  std::vector<std::unique_ptr<ThreadState>> threads_;  // indexed by thread
  std::unordered_map<std::uint32_t, FunctionState> functions_;
  FunctionState* last_function_ = nullptr;  // accesses of one function come in runs
  std::uint32_t last_function_id_ = 0;
  FootprintSet program_words_;         // for the program's footprint: threads may share words
  DeferredInserts footprint_inserts_;  // into program_words_ and the functions' sets
  ScatterSample scatter_;
  std::uint64_t accesses_ = 0;
};

}  // namespace parperf::locality
