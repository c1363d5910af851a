#include "analysis/call_path_profile.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analysis/sampled_frames.hpp"
#include "analysis/user_call_path.hpp"

namespace parperf::analysis {
namespace {

using Frame = SampledFrame;

struct FunctionTally {
  std::uint64_t self = 0;
  std::uint64_t inclusive = 0;
  std::map<std::pair<std::string, std::int64_t>, std::uint64_t> lines;       // (file, line) -> self samples
  std::map<std::pair<std::string, std::int64_t>, std::uint64_t> call_lines;  // -> samples through the call
};

struct IntervalTally {
  std::uint64_t samples = 0;
  std::map<std::string, FunctionTally> functions;
  std::map<std::vector<std::string>, std::uint64_t> paths;
  std::map<std::int64_t, std::map<std::string, std::uint64_t>> processor_self;  // processor -> function
  std::map<std::int64_t, std::uint64_t> processor_samples;
};

std::vector<std::string> interval_path(const IntervalTree& tree, std::size_t interval) {
  std::vector<std::string> path;
  for (std::size_t i = interval;; i = tree.intervals[i].parent) {
    const IntervalIdentity& id = tree.intervals[i].identity;
    std::string name = id.name.empty() ? "interval" : id.name;
    if (id.value != 0) {
      name += '=';
      name += std::to_string(id.value);
    }
    path.push_back(name);
    if (i == 0 || tree.intervals[i].parent == i) break;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

// Frame names must not hold the folded format's separators.
std::string folded_name(std::string name) {
  std::replace(name.begin(), name.end(), ';', ':');
  std::replace(name.begin(), name.end(), '\n', ' ');
  return name;
}

SampledFunction function_figures(const std::string& name, const FunctionTally& tally) {
  SampledFunction f{name, "", 0, tally.self, tally.inclusive, {}, {}};
  // The line most self samples were at; a function with none: the call most samples went through.
  for (const auto* lines : {&tally.lines, &tally.call_lines}) {
    std::uint64_t best = 0;
    for (const auto& [where, samples] : *lines)
      if (samples > best && where.second > 0) best = samples, f.file = where.first, f.line = where.second;
    if (best > 0) break;
  }
  return f;
}

}  // namespace

SampleProfile analyse_samples(const RunData& run, const IntervalTree& tree, Unit unit, std::size_t top,
                              bool internals) {
  SampleProfile result;
  SampledFrameNames names(result.warnings);
  double cpu_ns = 0;  // of the sampled threads
  std::map<std::size_t, IntervalTally> tallies;
  std::map<std::vector<std::string>, std::uint64_t> folded;
  for (const format::Profile& profile : run.profiles) {
    if (!profile.call_paths) continue;
    for (const format::SetupSamplesRecord& setup : profile.setup_samples) {
      result.start_up += setup.start_up;
      result.shut_down += setup.shut_down;
    }
    result.model_threads += profile.model_threads;
    const format::CallPaths& paths = *profile.call_paths;
    const char* sent_by = paths.source == format::SampleSource::perf_event ? "perf_event"
                          : paths.source == format::SampleSource::both     ? "both"
                                                                           : "timer";
    result.source = !result.sampled || result.source == sent_by ? sent_by : "both";
    result.sampled = true;
    result.wall_clock = paths.clock == format::SampleClock::wall;
    result.period_ns = paths.period_ns;
    for (const format::CallPathThread& thread : paths.threads) {
      // The thread's CPU time: what its clock counted (the perf-event clock counts user time only).
      for (const format::Thread& t : profile.threads)
        if (t.index == thread.thread)
          for (const format::Node& node : t.nodes)
            cpu_ns +=
                static_cast<double>(node.os_user_self_ns) + (paths.source == format::SampleSource::perf_event
                                                                 ? 0.0
                                                                 : static_cast<double>(node.os_sys_self_ns));
      result.samples += thread.samples;
      result.dropped += thread.dropped;
      const Location location{profile.process.rank, thread.thread};
      const auto intervals = tree.node_intervals.find(location);
      if (intervals == tree.node_intervals.end()) continue;
      const std::int64_t processor = processor_number(tree, location, unit);
      for (std::size_t i = 0; i < thread.nodes.size(); ++i) {
        const format::CallPathNode& leaf = thread.nodes[i];
        if (leaf.samples == 0 || leaf.interval >= intervals->second.size()) continue;
        const std::size_t interval = intervals->second[leaf.interval];
        std::vector<const Frame*> frames;  // outermost first
        for (const std::uint32_t n : user_call_path(paths, thread, static_cast<std::uint32_t>(i), internals))
          for (const Frame& f : names.of(paths, thread.nodes[n])) frames.push_back(&f);
        while (frames.size() > 1 && parperf_internal_function(frames.back()->function)) frames.pop_back();
        if (frames.empty()) continue;
        if (frames.front()->function == kUnwindingStoppedFrame) result.not_unwound += leaf.samples;
        std::vector<std::string> path;
        for (const Frame* f : frames)
          if (path.empty() || path.back() != f->function) path.push_back(f->function);  // inlined repeats
        IntervalTally& tally = tallies[interval];
        tally.samples += leaf.samples;
        const Frame& last = *frames.back();
        FunctionTally& self = tally.functions[last.function];
        self.self += leaf.samples;
        self.lines[{last.file, last.line}] += leaf.samples;
        std::set<std::string> seen;
        for (const Frame* f : frames) {
          FunctionTally& t = tally.functions[f->function];
          if (seen.insert(f->function).second) t.inclusive += leaf.samples;
          if (f != &last) t.call_lines[{f->file, f->line}] += leaf.samples;
        }
        tally.paths[path] += leaf.samples;
        tally.processor_self[processor][last.function] += leaf.samples;
        tally.processor_samples[processor] += leaf.samples;
        std::vector<std::string> stack = interval_path(tree, interval);
        for (const std::string& name : path) stack.push_back(name);
        for (std::string& name : stack) name = folded_name(std::move(name));
        folded[stack] += leaf.samples;
      }
    }
  }
  for (auto& [interval, tally] : tallies) {
    IntervalSamples s;
    s.interval = interval;
    s.identity = tree.intervals[interval].identity;
    s.path = interval_path(tree, interval);
    s.samples = tally.samples;
    for (const auto& [name, t] : tally.functions) s.functions.push_back(function_figures(name, t));
    std::stable_sort(s.functions.begin(), s.functions.end(), [](const auto& a, const auto& b) {
      return std::tie(a.self, a.inclusive) > std::tie(b.self, b.inclusive);
    });
    for (SampledFunction& f : s.functions) {
      f.self_share = share_interval(f.self, s.samples);
      f.inclusive_share = share_interval(f.inclusive, s.samples);
    }
    s.ranked = s.functions.size() < 2 || tells_apart(s.functions[0].self_share, s.functions[1].self_share);
    for (auto& [frames, samples] : tally.paths) s.paths.push_back({frames, samples});
    std::stable_sort(s.paths.begin(), s.paths.end(),
                     [](const auto& a, const auto& b) { return a.samples > b.samples; });
    if (top > 0 && s.functions.size() > top) s.functions.resize(top);
    if (top > 0 && s.paths.size() > top) s.paths.resize(top);
    for (auto& [processor, functions] : tally.processor_self) {
      ProcessorTopFunction p{processor, "", 0, tally.processor_samples[processor]};
      for (const auto& [name, self] : functions)
        if (self > p.self) p.function = name, p.self = self;
      s.processors.push_back(p);
      s.processor_samples.push_back({processor, p.samples, std::move(functions)});
    }
    result.intervals.push_back(std::move(s));
  }
  for (auto& [frames, samples] : folded) result.folded.push_back({frames, samples});
  if (!result.wall_clock && cpu_ns > 0)
    result.effective_hz =
        static_cast<double>(result.samples + result.start_up + result.shut_down) / (cpu_ns * 1e-9);
  return result;
}

}  // namespace parperf::analysis
