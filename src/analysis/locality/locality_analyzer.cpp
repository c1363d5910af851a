#include "analysis/locality/locality_analyzer.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "analysis/locality/locality_scores.hpp"

namespace parperf::locality {

struct LocalityAnalyzer::ThreadState {
  ThreadState(const LocalityOptions& options) : window(options.window), reuse(options.min_tree_capacity) {
    counts.strides.assign(options.max_stride + 2, 0);
  }
  StrideWindow window;
  ReuseDistanceTracker reuse;
  LocalityHistograms counts;  // raw (sampled) counts
};

struct LocalityAnalyzer::FunctionState {
  LocalityHistograms counts;  // raw (sampled) counts
  WordSet words;              // distinct words the function touched, over all threads
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
  return options;
}

}  // namespace

LocalityAnalyzer::LocalityAnalyzer(const LocalityOptions& options)
    : options_(validated(options)),
      word_shift_(static_cast<unsigned>(std::countr_zero(options.word_bytes))),
      sampler_(options.sample_rate),
      scale_rate_(sampler_.rate() * options.presampled_rate),
      scatter_(options.scatter_points) {}

LocalityAnalyzer::~LocalityAnalyzer() = default;

LocalityAnalyzer::ThreadState& LocalityAnalyzer::thread_state(std::uint16_t thread) {
  if (thread >= threads_.size()) threads_.resize(std::size_t{thread} + 1);
  auto& state = threads_[thread];
  if (!state) state = std::make_unique<ThreadState>(options_);
  return *state;
}

LocalityAnalyzer::FunctionState& LocalityAnalyzer::function_state(std::uint32_t function) {
  if (last_function_ != nullptr && last_function_id_ == function) return *last_function_;
  auto [it, inserted] = functions_.try_emplace(function);
  if (inserted) it->second.counts.strides.assign(options_.max_stride + 2, 0);
  last_function_ = &it->second;  // unordered_map nodes do not move on rehash
  last_function_id_ = function;
  return it->second;
}

void LocalityAnalyzer::add(const Access& access) {
  scatter_.offer({accesses_++, access.address, access.function, access.thread, access.store});
  ThreadState& thread = thread_state(access.thread);
  if (access.skipped_before != 0) thread.window.skip(access.skipped_before);
  const std::uint64_t first = access.address >> word_shift_;
  const std::uint32_t words =
      access.size <= options_.word_bytes ? 1 : (access.size + options_.word_bytes - 1) >> word_shift_;
  for (std::uint32_t k = 0; k < words; ++k) {
    const std::uint64_t word = first + k;
    if (sampler_.exact() || sampler_.sampled(word)) {
      record_word(thread, access, word, k == 0);
    } else {
      thread.window.push(word);  // unsampled words are still neighbours of sampled ones
    }
  }
}

void LocalityAnalyzer::add(std::span<const Access> accesses) {
  constexpr std::size_t kLookahead = 8;  // enough round trips in flight to hide memory latency
  for (std::size_t i = 0; i < accesses.size(); ++i) {
    if (i + kLookahead < accesses.size()) {
      const Access& ahead = accesses[i + kLookahead];
      const std::uint64_t word = ahead.address >> word_shift_;
      if (sampler_.exact() || sampler_.sampled(word)) thread_state(ahead.thread).reuse.prefetch(word);
    }
    add(accesses[i]);
  }
}

void LocalityAnalyzer::record_word(ThreadState& thread, const Access& access, std::uint64_t word,
                                   bool first_word) {
  const std::uint64_t stride = thread.window.nearest(word);
  thread.window.push(word);
  const std::size_t longer = options_.max_stride + 1;
  const std::size_t stride_slot = stride >= longer ? longer : static_cast<std::size_t>(stride);

  const ReuseDistanceTracker::Result reuse = thread.reuse.access(word, access.function);
  const bool cold = reuse.distance == ReuseDistanceTracker::kCold;
  FunctionState& function = function_state(access.function);
  if (cold) program_words_.insert(word);
  // If this thread's previous access to the word was by the same function, it is in the set.
  if (cold || reuse.previous_function != access.function) function.words.insert(word);

  std::size_t bin = 0;
  if (!cold) {
    const std::uint64_t distance =
        scale_rate_ == 1.0
            ? reuse.distance
            : static_cast<std::uint64_t>(std::llround(static_cast<double>(reuse.distance) / scale_rate_));
    bin = reuse_bin(distance);
  }
  for (LocalityHistograms* counts : {&thread.counts, &function.counts}) {
    ++counts->word_accesses;
    ++counts->strides[stride_slot];
    if (cold) {
      ++counts->cold;
    } else {
      ++counts->reuse[bin];
    }
    if (access.store) {
      ++counts->store_words;
      counts->store_accesses += first_word ? 1 : 0;
    } else {
      ++counts->load_words;
      counts->load_accesses += first_word ? 1 : 0;
    }
  }
}

LocalityHistograms LocalityAnalyzer::scaled(const LocalityHistograms& raw, std::uint64_t footprint) const {
  LocalityHistograms result = raw;
  result.footprint_words = footprint;
  if (scale_rate_ == 1.0) return result;
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
  LocalityReport report;
  report.options = options_;
  report.effective_sample_rate = scale_rate_;
  LocalityHistograms program;
  program.strides.assign(options_.max_stride + 2, 0);
  for (std::size_t t = 0; t < threads_.size(); ++t) {
    if (!threads_[t]) continue;
    const ThreadState& thread = *threads_[t];
    program += thread.counts;
    report.threads[static_cast<std::uint16_t>(t)] =
        score(scaled(thread.counts, thread.reuse.distinct_words()), options_.log2_n);
  }
  for (const auto& [id, function] : functions_)
    report.functions[id] = score(scaled(function.counts, function.words.size()), options_.log2_n);
  report.program = score(scaled(program, program_words_.size()), options_.log2_n);
  report.scatter = scatter_.take();
  return report;
}

}  // namespace parperf::locality
