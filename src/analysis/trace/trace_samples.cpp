#include "analysis/trace/trace_samples.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "analysis/sampled_frames.hpp"
#include "analysis/user_call_path.hpp"

namespace parperf::analysis {
namespace {

const format::Thread* profile_thread(const format::Profile& profile, std::uint32_t index) {
  for (const format::Thread& t : profile.threads)
    if (t.index == index) return &t;
  return nullptr;
}

const format::CallPathThread* sampled_thread(const format::Profile& profile, std::uint32_t index) {
  if (!profile.call_paths) return nullptr;
  for (const format::CallPathThread& t : profile.call_paths->threads)
    if (t.thread == index) return &t;
  return nullptr;
}

// The intervals from the program down to node `interval` of the thread's tree, by name and by site.
void interval_path(const RankTrace& rank, const format::Thread* thread, std::uint32_t interval,
                   SampleStack& stack) {
  if (!thread) return;
  for (std::uint32_t n = interval; n < thread->nodes.size(); n = thread->nodes[n].parent) {
    const format::Node& node = thread->nodes[n];
    std::string name = site_name(rank, node.site);
    if (node.value != 0) name += fmt::format("={}", node.value);
    stack.interval_path.push_back(std::move(name));
    stack.intervals.push_back({node.site, node.value});
    if (node.parent == format::kNoParent || stack.intervals.size() > thread->nodes.size()) break;
  }
  std::reverse(stack.interval_path.begin(), stack.interval_path.end());
  std::reverse(stack.intervals.begin(), stack.intervals.end());
}

// Resolves the stacks of one rank's threads, each leaf once.
class StackResolver {
 public:
  StackResolver(TraceSamples& out, SampledFrameNames& names) : out_(out), names_(names) {}

  // The stack of `leaf` of the thread, or nullopt when the profile does not have it.
  std::optional<std::size_t> stack(const RankTrace& rank, std::uint32_t thread, std::uint32_t leaf) {
    const auto key = std::make_tuple(rank.rank, thread, leaf);
    if (const auto it = known_.find(key); it != known_.end()) return it->second;
    std::optional<std::size_t> found = resolve(rank, thread, leaf);
    known_.emplace(key, found);
    return found;
  }

 private:
  std::optional<std::size_t> resolve(const RankTrace& rank, std::uint32_t thread, std::uint32_t leaf) {
    if (!rank.profile) return std::nullopt;
    const format::CallPathThread* paths = sampled_thread(*rank.profile, thread);
    if (!paths || leaf >= paths->nodes.size()) return std::nullopt;
    const format::CallPaths& call_paths = *rank.profile->call_paths;
    SampleStack stack;
    stack.interval_node = paths->nodes[leaf].interval;
    interval_path(rank, profile_thread(*rank.profile, thread), stack.interval_node, stack);
    for (const std::uint32_t n : user_call_path(call_paths, *paths, leaf, false)) {
      const format::CallPathNode& node = paths->nodes[n];
      const std::string module =
          node.module < call_paths.modules.size() ? call_paths.modules[node.module].path : std::string();
      for (const SampledFrame& f : names_.of(call_paths, node))
        stack.frames.push_back({f.function, f.file, f.line, module, node.address});
    }
    while (stack.frames.size() > 1 && parperf_internal_function(stack.frames.back().function))
      stack.frames.pop_back();
    out_.stacks.push_back(std::move(stack));
    return out_.stacks.size() - 1;
  }

  TraceSamples& out_;
  SampledFrameNames& names_;
  std::map<std::tuple<std::int64_t, std::uint32_t, std::uint32_t>, std::optional<std::size_t>> known_;
};

}  // namespace

TraceSamples load_trace_samples(const TraceRun& traces) {
  TraceSamples out;
  SampledFrameNames names(out.warnings);
  StackResolver stacks(out, names);
  for (const RankTrace& rank : traces.ranks) {
    const TraceClock clock(*rank.trace);
    std::map<std::uint32_t, ThreadTraceSamples> threads;
    for (const format::TraceSampleBlock& block : rank.trace->sample_blocks) {
      ThreadTraceSamples& thread = threads[block.header.thread];
      thread.rank = rank.rank;
      thread.thread = block.header.thread;
      if (rank.profile && rank.profile->call_paths)
        thread.period_ns = static_cast<double>(rank.profile->call_paths->period_ns);
      thread.lost += block.header.lost;
      for (const format::TraceSample& s : format::samples_of(*rank.trace, block)) {
        const std::optional<std::size_t> stack = stacks.stack(rank, block.header.thread, s.node);
        if (!stack) {
          thread.unresolved += s.weight;
          continue;
        }
        const double local = clock.local_ns(s.ticks);
        thread.samples.push_back({local, traces.clocks.apply(rank.rank, local), s.weight, *stack});
        out.samples += s.weight;
      }
    }
    for (auto& [index, thread] : threads) {
      if (thread.unresolved)
        out.warnings.push_back(
            fmt::format("{}: {} samples of thread {} name call paths its profile does not hold: left out",
                        rank.file, thread.unresolved, index));
      out.lost += thread.lost;
      out.threads.push_back(std::move(thread));
    }
  }
  return out;
}

}  // namespace parperf::analysis
