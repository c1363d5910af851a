#include "analysis/trace/path_functions.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace parperf::analysis {
namespace {

using FunctionKey = std::tuple<std::string, std::string, std::string>;  // name, file, module

// Each distinct stack's functions, found once: the stacks are few, the samples many.
struct StackFunctions {
  std::vector<std::size_t> inclusive;  // distinct, into the function table
  std::size_t leaf = 0;
  bool empty = true;
};

std::vector<StackFunctions> functions_of_stacks(const TraceSamples& samples,
                                                std::vector<PathFunction>& table) {
  std::map<FunctionKey, std::size_t> index;
  const auto id = [&](const SampleStackFrame& f) {
    const auto [it, added] = index.try_emplace(FunctionKey(f.function, f.file, f.module), table.size());
    if (added) table.push_back({.name = f.function, .file = f.file, .module = f.module});
    return it->second;
  };
  std::vector<StackFunctions> out(samples.stacks.size());
  for (std::size_t s = 0; s < samples.stacks.size(); ++s) {
    const std::vector<SampleStackFrame>& frames = samples.stacks[s].frames;
    if (frames.empty()) continue;
    StackFunctions& f = out[s];
    f.empty = false;
    for (const SampleStackFrame& frame : frames) {
      const std::size_t i = id(frame);
      // Counted once however often it recurses.
      if (std::find(f.inclusive.begin(), f.inclusive.end(), i) == f.inclusive.end()) f.inclusive.push_back(i);
    }
    f.leaf = id(frames.back());
  }
  return out;
}

}  // namespace

PathFunctions path_functions(std::vector<PathPiece> pieces, double length_ns, const TraceSamples& samples) {
  PathFunctions out;
  out.sampled = !samples.threads.empty();
  out.samples = samples.samples;
  std::vector<PathFunction> table;
  const std::vector<StackFunctions> stacks = functions_of_stacks(samples, table);
  const auto location_less = [](const PathPiece& a, const PathPiece& b) {
    return std::tie(a.rank, a.thread) < std::tie(b.rank, b.thread);
  };
  std::sort(pieces.begin(), pieces.end(), [](const PathPiece& a, const PathPiece& b) {
    return std::tie(a.rank, a.thread, a.begin_ns) < std::tie(b.rank, b.thread, b.begin_ns);
  });
  std::vector<std::size_t> order;
  for (const ThreadTraceSamples& thread : samples.threads) {
    // The thread's samples by time (as taken, nearly always) against its pieces by begin: one sweep.
    order.resize(thread.samples.size());
    std::iota(order.begin(), order.end(), 0);
    const auto earlier = [&](std::size_t a, std::size_t b) {
      return thread.samples[a].time_ns < thread.samples[b].time_ns;
    };
    if (!std::is_sorted(order.begin(), order.end(), earlier))
      std::stable_sort(order.begin(), order.end(), earlier);
    PathPiece here;
    here.rank = thread.rank;
    here.thread = thread.thread;
    const auto [first, last] = std::equal_range(pieces.begin(), pieces.end(), here, location_less);
    auto piece = first;  // the pieces of a location do not overlap (critical_path merges them)
    for (const std::size_t i : order) {
      const TraceSampleEntry& s = thread.samples[i];
      const StackFunctions& f = stacks[s.stack];
      if (f.empty) continue;
      const double t = static_cast<double>(s.weight) * thread.period_ns;
      while (piece != last && piece->end_ns < s.time_ns) ++piece;
      const bool on_path = piece != last && piece->begin_ns <= s.time_ns;
      for (const std::size_t k : f.inclusive) {
        PathFunction& row = table[k];
        row.total_ns += t;
        if (!on_path) continue;
        row.time_ns += t;
        row.samples += s.weight;
      }
      if (on_path) {
        table[f.leaf].self_ns += t;
        out.path_samples += s.weight;
      }
    }
  }
  for (PathFunction& row : table) row.share = length_ns > 0 ? row.time_ns / length_ns : 0;
  std::stable_sort(table.begin(), table.end(), [](const PathFunction& a, const PathFunction& b) {
    return std::tie(a.time_ns, a.total_ns) > std::tie(b.time_ns, b.total_ns);
  });
  out.functions = std::move(table);
  return out;
}

}  // namespace parperf::analysis
