// Every short sequence of begins, ends and recording switches gives a profile the report accepts.
//
// The rule (interval_api.cpp): an entry begun while recording is on is recorded when it ends, with
// the time recording was on, even if it ends during a pause; an entry begun while recording is off,
// or inside such an entry, is not recorded. So an interval never loses its entry while keeping its
// children, and a child's time never exceeds its parent's. This runs every well-nested sequence of up
// to kMaxLength steps of {begin A, begin B, end, off, on} in one process, each sequence in its own
// subtree (its intervals carry the sequence's number as their value), and checks the written profile
// against the rule's counts and against the report's own invariants (profile_invariants.hpp).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/profile_invariants.hpp"
#include "parperf/parperf.h"
#include "unit/runtime_profile_reader.hpp"

namespace parperf::testing {
namespace {

parperf_site g_a = PARPERF_SITE_INIT("pause_a", PARPERF_KIND_USER);
parperf_site g_b = PARPERF_SITE_INIT("pause_b", PARPERF_KIND_USER);

constexpr std::size_t kMaxLength = 7;
// Each step is followed by this much busy time, so that a child's time exceeds any parent that
// lost its entry (0 s) by far more than the invariants' rounding slack (about 1 us).
constexpr auto kStepTime = std::chrono::microseconds(20);

enum class Step { begin_a, begin_b, end, off, on };
using Sequence = std::vector<Step>;

std::string describe(const Sequence& sequence) {
  static const char* const names[] = {"begin A", "begin B", "end", "control(0)", "control(1)"};
  std::string text;
  for (Step s : sequence) text += (text.empty() ? "" : ", ") + std::string(names[static_cast<int>(s)]);
  return text;
}

// All sequences of up to kMaxLength steps whose ends each close an open interval and that leave none
// open.
std::vector<Sequence> well_nested_sequences() {
  std::vector<Sequence> all;
  std::vector<std::pair<Sequence, int>> frontier{{{}, 0}};
  for (std::size_t length = 1; length <= kMaxLength; ++length) {
    std::vector<std::pair<Sequence, int>> next;
    for (const auto& [prefix, open] : frontier) {
      for (Step s : {Step::begin_a, Step::begin_b, Step::end, Step::off, Step::on}) {
        const int now_open = open + (s == Step::begin_a || s == Step::begin_b) - (s == Step::end);
        if (now_open < 0) continue;
        Sequence longer = prefix;
        longer.push_back(s);
        if (now_open == 0) all.push_back(longer);
        next.emplace_back(std::move(longer), now_open);
      }
    }
    frontier = std::move(next);
  }
  return all;
}

void busy_step() {
  const auto end = std::chrono::steady_clock::now() + kStepTime;
  while (std::chrono::steady_clock::now() < end) {
  }
}

// An interval path in one sequence's subtree: "A", "AB", "ABA"...
using Path = std::string;

// Runs `sequence` with its intervals at `value`, from recording on, and leaves recording on.
// Returns how many entries each path must have recorded under the rule.
std::map<Path, std::uint64_t> run(const Sequence& sequence, std::int64_t value) {
  struct Open {
    char name;
    bool recorded;
  };
  std::vector<Open> stack;
  std::map<Path, std::uint64_t> expected;
  bool recording = true;
  for (Step s : sequence) {
    if (s == Step::begin_a || s == Step::begin_b) {
      const char name = s == Step::begin_a ? 'A' : 'B';
      parperf_interval_begin(name == 'A' ? &g_a : &g_b, value);
      stack.push_back({name, recording && (stack.empty() || stack.back().recorded)});
    } else if (s == Step::end) {
      const Open top = stack.back();
      parperf_interval_end(top.name == 'A' ? &g_a : &g_b);
      if (top.recorded) {
        Path path;
        for (const Open& o : stack) path += o.name;
        ++expected[path];
      }
      stack.pop_back();
    } else {
      recording = s == Step::on;
      parperf_control(recording ? 1 : 0);
    }
    busy_step();
  }
  parperf_control(1);
  return expected;
}

TEST(RuntimePauseSequences, EverySequenceGivesAProfileWhoseFiguresAddUp) {
  const std::vector<Sequence> sequences = well_nested_sequences();
  std::vector<std::map<Path, std::uint64_t>> expected;
  for (std::size_t i = 0; i < sequences.size(); ++i)
    expected.push_back(run(sequences[i], static_cast<std::int64_t>(i)));

  const format::Profile profile = flush_and_read();
  const auto problem = analysis::find_impossible_value(profile);
  EXPECT_FALSE(problem) << "the report would refuse this profile: " << *problem;

  // Each sequence's nodes, by path: the node of path "AB" is B, value i, under A, value i, under the root.
  const format::Thread& thread = main_thread(profile);
  std::uint32_t site_a = 0, site_b = 0;
  for (const format::Site& s : profile.sites) {
    if (s.name == "pause_a") site_a = s.id;
    if (s.name == "pause_b") site_b = s.id;
  }
  std::vector<std::map<Path, std::uint32_t>> nodes(sequences.size());
  std::vector<Path> path_of(thread.nodes.size());
  for (std::uint32_t n = 1; n < thread.nodes.size(); ++n) {
    const format::Node& node = thread.nodes[n];
    if (node.site != site_a && node.site != site_b) continue;
    path_of[n] = path_of[node.parent] + (node.site == site_a ? 'A' : 'B');
    ASSERT_LT(static_cast<std::size_t>(node.value), sequences.size());
    nodes[static_cast<std::size_t>(node.value)][path_of[n]] = n;
  }

  int failures = 0;
  for (std::size_t i = 0; i < sequences.size() && failures < 10; ++i) {
    const std::string what = "after the sequence " + describe(sequences[i]) + ": ";
    for (const auto& [path, count] : expected[i]) {
      const auto found = nodes[i].find(path);
      const std::uint64_t recorded = found == nodes[i].end() ? 0 : thread.nodes[found->second].count;
      if (recorded != count) {
        ++failures;
        ADD_FAILURE() << what << "interval " << path << " has " << recorded << " entries, expected " << count
                      << " (its entries begun while recording was on)";
      }
    }
    for (const auto& [path, n] : nodes[i]) {
      const format::Node& node = thread.nodes[n];
      if (!expected[i].contains(path) && node.count != 0) {
        ++failures;
        ADD_FAILURE() << what << "interval " << path << " has " << node.count
                      << " entries, but none was begun while recording was on";
      }
      if (path.size() < 2) continue;
      const format::Node& parent = thread.nodes[node.parent];
      if (node.sum_ns > parent.sum_ns + 2 * (node.count + parent.count) + 1000) {
        ++failures;
        ADD_FAILURE() << what << "interval " << path << " took " << ms(node.sum_ns)
                      << " ms, more than its parent's " << ms(parent.sum_ns) << " ms";
      }
    }
  }
}

}  // namespace
}  // namespace parperf::testing
