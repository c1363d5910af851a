#include "analysis/trace/path_functions.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "analysis/trace/exact_sum.hpp"
#include "analysis/trace/part_reductions.hpp"

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

// A function's figures as its samples are added: exact sums (exact_sum.hpp), so that those added by
// parts come out the same as those added by one process.
struct FunctionSums {
  ExactSum time, self, total;
  std::uint64_t samples = 0;
  void add(const FunctionSums& o) {
    time.add(o.time);
    self.add(o.self);
    total.add(o.total);
    samples += o.samples;
  }
};

struct PathSums {
  bool sampled = false;
  std::uint64_t samples = 0, path_samples = 0;
  std::map<FunctionKey, FunctionSums> functions;
};

// The samples of `samples` against the path's pieces.
PathSums add_samples(std::vector<PathPiece> pieces, const TraceSamples& samples) {
  PathSums out;
  out.sampled = !samples.threads.empty();
  out.samples = samples.samples;
  std::vector<PathFunction> table;
  const std::vector<StackFunctions> stacks = functions_of_stacks(samples, table);
  std::vector<FunctionSums> sums(table.size());
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
        FunctionSums& row = sums[k];
        row.total.add(t);
        if (!on_path) continue;
        row.time.add(t);
        row.samples += s.weight;
      }
      if (on_path) {
        sums[f.leaf].self.add(t);
        out.path_samples += s.weight;
      }
    }
  }
  for (std::size_t k = 0; k < table.size(); ++k)
    out.functions[FunctionKey(table[k].name, table[k].file, table[k].module)].add(sums[k]);
  return out;
}

// The functions' rows: most time on the path first, then most time over the run, then by name (an
// order that does not depend on which samples came first).
PathFunctions rows(const PathSums& sums, double length_ns) {
  PathFunctions out;
  out.sampled = sums.sampled;
  out.samples = sums.samples;
  out.path_samples = sums.path_samples;
  for (const auto& [key, f] : sums.functions) {
    PathFunction row{.name = std::get<0>(key), .file = std::get<1>(key), .module = std::get<2>(key)};
    row.time_ns = f.time.ns();
    row.self_ns = f.self.ns();
    row.total_ns = f.total.ns();
    row.samples = f.samples;
    row.share = length_ns > 0 ? row.time_ns / length_ns : 0;
    out.functions.push_back(std::move(row));
  }
  std::stable_sort(out.functions.begin(), out.functions.end(),
                   [](const PathFunction& a, const PathFunction& b) {
                     return std::tie(a.time_ns, a.total_ns) > std::tie(b.time_ns, b.total_ns);
                   });
  return out;
}

}  // namespace

PathFunctions path_functions(std::vector<PathPiece> pieces, double length_ns, const TraceSamples& samples) {
  return rows(add_samples(std::move(pieces), samples), length_ns);
}

PathFunctions path_functions(std::vector<PathPiece> pieces, double length_ns, const TraceSamples& own,
                             PartExchange& exchange) {
  const PathSums mine = add_samples(std::move(pieces), own);
  PartBytes bytes;
  bytes.put(static_cast<std::uint8_t>(mine.sampled));
  bytes.put(mine.samples);
  bytes.put(mine.path_samples);
  bytes.put(static_cast<std::uint64_t>(mine.functions.size()));
  for (const auto& [key, f] : mine.functions) {
    bytes.put_text(std::get<0>(key));
    bytes.put_text(std::get<1>(key));
    bytes.put_text(std::get<2>(key));
    for (const ExactSum* sum : {&f.time, &f.self, &f.total}) {
      bytes.put(sum->whole());
      bytes.put(sum->fraction());
    }
    bytes.put(f.samples);
  }
  PathSums run;
  try {
    for (const std::vector<std::uint8_t>& each : exchange.gather_all(bytes.bytes())) {
      PartBytesReader in(each);
      run.sampled = in.take<std::uint8_t>() != 0 || run.sampled;
      run.samples += in.take<std::uint64_t>();
      run.path_samples += in.take<std::uint64_t>();
      for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
        std::string name = in.take_text(), file = in.take_text(), module = in.take_text();
        FunctionSums f;
        for (ExactSum* sum : {&f.time, &f.self, &f.total}) {
          const auto whole = in.take<std::uint64_t>();
          *sum = ExactSum::of(whole, in.take<std::uint64_t>());
        }
        f.samples = in.take<std::uint64_t>();
        run.functions[FunctionKey(std::move(name), std::move(file), std::move(module))].add(f);
      }
    }
  } catch (const std::logic_error&) {
    throw std::runtime_error("parallel trace analysis: a part sent its path functions damaged");
  }
  return rows(run, length_ns);
}

}  // namespace parperf::analysis
