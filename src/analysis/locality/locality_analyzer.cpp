#include "analysis/locality/locality_analyzer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "analysis/locality/locality_scores.hpp"
#include "analysis/locality/raw_counts.hpp"

namespace parperf::locality {

struct LocalityAnalyzer::ThreadState {
  explicit ThreadState(const LocalityOptions& options)
      : window(options.window), reuse(options.min_tree_capacity), counts(options.max_stride) {}
  StrideWindow window;
  ReuseDistanceTracker reuse;
  RawCounts counts;  // raw (sampled) counts
  // Bursts: the position in the current burst, the counts when it began, and the largest footprint
  // of a burst so far (the reuse history starts anew with each).
  std::uint64_t burst_position = 0;
  RawCounts burst_start{0};
  std::size_t footprint = 0;
};

struct LocalityAnalyzer::FunctionState {
  explicit FunctionState(std::uint32_t max_stride) : counts(max_stride) {}
  RawCounts counts;    // raw (sampled) counts
  FootprintSet words;  // distinct words the function touched, over all threads
};

namespace {

const LocalityOptions& validated(const LocalityOptions& options) {
  if (options.word_bytes < 2 || !std::has_single_bit(options.word_bytes))
    throw std::invalid_argument("locality: word_bytes must be a power of two >= 2");
  if (options.window == 0) throw std::invalid_argument("locality: window must be >= 1");
  if (options.max_stride == 0) throw std::invalid_argument("locality: max_stride must be >= 1");
  if (options.log2_n == 0 || options.log2_n > 63)
    throw std::invalid_argument("locality: log2_n must be in 1..63");
  if (!(options.sample_rate > 0 && options.sample_rate <= 1))
    throw std::invalid_argument("locality: sample_rate must be in (0, 1]");
  if (!(options.presampled_rate > 0 && options.presampled_rate <= 1))
    throw std::invalid_argument("locality: presampled_rate must be in (0, 1]");
  if (options.burst_length == 1 || (options.burst_length > 0 && options.mean_gap == 0))
    throw std::invalid_argument("locality: bursts need a burst_length >= 2 and a mean_gap >= 1");
  return options;
}

}  // namespace

LocalityAnalyzer::LocalityAnalyzer(const LocalityOptions& options)
    : options_(validated(options)),
      word_shift_(static_cast<unsigned>(std::countr_zero(options.word_bytes))),
      sampler_(options.sample_rate),
      distance_rate_(sampler_.rate() * options.presampled_rate),
      scale_rate_(
          options.burst_length == 0
              ? distance_rate_
              : distance_rate_ *
                    static_cast<double>(options.burst_length - format::burst_warmup(options.burst_length)) /
                    static_cast<double>(options.burst_length + options.mean_gap)),
      warmup_(options.burst_length == 0 ? 0 : format::burst_warmup(options.burst_length)),
      scatter_(options.scatter_points) {}

LocalityAnalyzer::~LocalityAnalyzer() = default;

// The lookups are split into an inlined fast path and an out-of-line rest, so that each access
// pays a comparison or two, not a call.
inline LocalityAnalyzer::ThreadState& LocalityAnalyzer::thread_state(std::uint16_t thread) {
  if (thread < threads_.size() && threads_[thread]) [[likely]]
    return *threads_[thread];
  return new_thread_state(thread);
}

LocalityAnalyzer::ThreadState& LocalityAnalyzer::new_thread_state(std::uint16_t thread) {
  if (thread >= threads_.size()) threads_.resize(std::size_t{thread} + 1);
  threads_[thread] = std::make_unique<ThreadState>(options_);
  threads_[thread]->burst_start = threads_[thread]->counts;
  return *threads_[thread];
}

inline LocalityAnalyzer::FunctionState& LocalityAnalyzer::function_state(std::uint32_t function) {
  if (last_function_ != nullptr && last_function_id_ == function) [[likely]]
    return *last_function_;
  return switch_function(function);
}

LocalityAnalyzer::FunctionState& LocalityAnalyzer::switch_function(std::uint32_t function) {
  auto it = functions_.try_emplace(function, options_.max_stride).first;
  last_function_ = &it->second;  // unordered_map nodes do not move on rehash
  last_function_id_ = function;
  return it->second;
}

inline bool LocalityAnalyzer::sampled(std::uint64_t word) const {
  return sampler_.exact() || sampler_.sampled(word);
}

void LocalityAnalyzer::add(const Access& access) { add(access, sampled(access.address >> word_shift_)); }

inline void LocalityAnalyzer::add(const Access& access, bool first_sampled) {
  scatter_.offer({accesses_++, access.address, access.function, access.thread, access.store});
  ThreadState& thread = thread_state(access.thread);
  if (access.skipped_before != 0) {
    if (warmup_ != 0) {
      begin_burst(thread);
    } else {
      thread.window.skip(access.skipped_before);
    }
  }
  // In a burst's warm-up the words only fill the window and the history.
  bool warming = false;
  if (warmup_ != 0) {
    warming = thread.burst_position++ < warmup_;
    counted_accesses_ += warming ? 0 : 1;
    // The thread's accesses, for the counts' scale: a saturated skipped count stands for the mean gap.
    const std::uint64_t skipped = access.skipped_before;
    made_accesses_ += 1 + (skipped == 0xffff ? std::max<std::uint64_t>(skipped, options_.mean_gap) : skipped);
  }
  const std::uint64_t first = access.address >> word_shift_;
  const std::uint32_t words =
      access.size <= options_.word_bytes ? 1 : (access.size + options_.word_bytes - 1) >> word_shift_;
  for (std::uint32_t k = 0; k < words; ++k) {
    const std::uint64_t word = first + k;
    if (k == 0 ? first_sampled : sampled(word)) {
      record_word(thread, access, word, k == 0, !warming);
    } else {
      thread.window.push(word);  // unsampled words are still neighbours of sampled ones
    }
  }
}

void LocalityAnalyzer::add(std::span<const Access> accesses) {
  // The first word of each access is tested for sampling once, kLookahead accesses ahead, where a
  // sampled word's table slot is prefetched: the SHARDS hash is a large part of a sampled access.
  constexpr std::size_t kLookahead = 8;  // enough round trips in flight to hide memory latency
  std::array<bool, kLookahead> ahead_sampled{};
  auto look_ahead = [&](std::size_t i) {
    const Access& ahead = accesses[i];
    const std::uint64_t word = ahead.address >> word_shift_;
    ahead_sampled[i % kLookahead] = sampled(word);
    if (ahead_sampled[i % kLookahead]) thread_state(ahead.thread).reuse.prefetch(word);
  };
  for (std::size_t i = 0; i < kLookahead && i < accesses.size(); ++i) look_ahead(i);
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    const bool first_sampled = ahead_sampled[i % kLookahead];
    if (i + kLookahead < accesses.size()) look_ahead(i + kLookahead);
    add(accesses[i], first_sampled);
  }
}

void LocalityAnalyzer::record_word(ThreadState& thread, const Access& access, std::uint64_t word,
                                   bool first_word, bool counted) {
  // The stride is only counted: a burst's warm-up skips the window's search (a fifth of the analysis).
  const std::size_t longer = options_.max_stride + 1;  // the slot of every longer stride
  const auto stride_slot = counted ? static_cast<std::size_t>(thread.window.nearest(word, longer)) : longer;
  thread.window.push(word);

  const ReuseDistanceTracker::Result reuse = thread.reuse.access(word, access.function);
  const bool cold = reuse.distance == ReuseDistanceTracker::kCold;
  FunctionState& function = function_state(access.function);
  if (cold) footprint_inserts_.insert(program_words_, word);
  // If this thread's previous access to the word was by the same function, it is in the set.
  if (cold || reuse.previous_function != access.function) footprint_inserts_.insert(function.words, word);

  std::size_t reuse_slot = RawCounts::kColdBin;
  if (!cold) {
    const std::uint64_t distance =
        distance_rate_ == 1.0
            ? reuse.distance
            : static_cast<std::uint64_t>(std::llround(static_cast<double>(reuse.distance) / distance_rate_));
    reuse_slot = reuse_bin(distance);
  }
  if (!counted) [[unlikely]]
    return;  // a burst's warm-up: it fills the window, the history and the footprints only
  thread.counts.record(stride_slot, reuse_slot, access.store, first_word);
  function.counts.record(stride_slot, reuse_slot, access.store, first_word);
}

void LocalityAnalyzer::end_burst(ThreadState& thread) {
  const RawCounts& now = thread.counts;
  const RawCounts& before = thread.burst_start;
  const std::uint64_t words = now.words[0] + now.words[1] - before.words[0] - before.words[1];
  if (words > 0) {
    std::vector<std::uint64_t> strides(now.strides.size());
    for (std::size_t i = 0; i < strides.size(); ++i) strides[i] = now.strides[i] - before.strides[i];
    std::array<std::uint64_t, kReuseBins> reuse{};
    for (std::size_t b = 0; b < kReuseBins; ++b) reuse[b] = now.reuse[b] - before.reuse[b];
    burst_scores_.push_back(
        {spatial_locality(strides, words), temporal_locality(reuse, words, options_.log2_n), words});
  }
  thread.burst_start = now;
  thread.footprint = std::max(thread.footprint, thread.reuse.distinct_words());
}

void LocalityAnalyzer::begin_burst(ThreadState& thread) {
  end_burst(thread);
  thread.window = StrideWindow(options_.window);
  thread.reuse.clear();  // keeps the table's memory: the next burst touches about as many words
  thread.burst_position = 0;
}

LocalityHistograms LocalityAnalyzer::scaled(const LocalityHistograms& raw, std::uint64_t footprint) const {
  LocalityHistograms result = raw;
  result.footprint_words = footprint;
  if (scale_rate_ == 1.0) return result;
  // A burst's footprint is what it touched: only the word sampling scales it.
  result.footprint_words =
      static_cast<std::uint64_t>(std::llround(static_cast<double>(footprint) / distance_rate_ * scale_rate_));
  const double scale = 1 / scale_rate_;
  auto up = [scale](std::uint64_t& count) {
    count = static_cast<std::uint64_t>(std::llround(static_cast<double>(count) * scale));
  };
  up(result.load_accesses);
  up(result.store_accesses);
  up(result.load_words);
  up(result.store_words);
  up(result.word_accesses);
  up(result.footprint_words);
  up(result.cold);
  for (auto& count : result.strides) up(count);
  for (auto& count : result.reuse) up(count);
  return result;
}

LocalityReport LocalityAnalyzer::finish() {
  footprint_inserts_.flush();
  LocalityReport report;
  report.options = options_;
  if (warmup_ != 0 && counted_accesses_ > 0)
    scale_rate_ =
        distance_rate_ * static_cast<double>(counted_accesses_) / static_cast<double>(made_accesses_);
  report.effective_sample_rate = scale_rate_;
  LocalityHistograms program;
  program.strides.assign(options_.max_stride + 2, 0);
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    if (!threads_[t]) continue;
    ThreadState& thread = *threads_[t];
    if (warmup_ != 0) end_burst(thread);
    const LocalityHistograms counts = thread.counts.histograms();
    program += counts;
    const std::size_t footprint = std::max(thread.footprint, thread.reuse.distinct_words());
    report.threads[static_cast<std::uint16_t>(t)] = score(scaled(counts, footprint), options_.log2_n);
  }
  if (warmup_ != 0) report.uncertainty = burst_uncertainty(burst_scores_);
  for (const auto& [id, function] : functions_)
    report.functions[id] =
        score(scaled(function.counts.histograms(), function.words.size()), options_.log2_n);
  report.program = score(scaled(program, program_words_.size()), options_.log2_n);
  report.scatter = scatter_.take();
  return report;
}

}  // namespace parperf::locality
