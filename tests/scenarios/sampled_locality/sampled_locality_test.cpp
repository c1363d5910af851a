// Scenario: the sampled memory mode. `parperf cc --sampled` loads the pass plugin, which puts an
// inline countdown before every load and store; the collector (libparperf-mem) is called only when
// it expires and records bursts of consecutive accesses. The programs (stream_walk.c) have known
// access counts and locality, so the machine code, the bursts and the scores can be checked against
// their construction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <vector>

#include "format/memory_trace_reader.hpp"
#include "support/artifacts.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::filesystem::path kSources = PARPERF_SAMPLED_SOURCES;

ProcessResult run(const std::vector<std::string>& argv,
                  std::vector<std::pair<std::string, std::string>> env = {}) {
  ProcessOptions options;
  options.env = std::move(env);
  options.timeout_seconds = 120;
  return run_process(argv, options);
}

ProcessResult parperf(std::vector<std::string> arguments,
                      std::vector<std::pair<std::string, std::string>> env = {}) {
  arguments.insert(arguments.begin(), parperf_command().string());
  return run(arguments, std::move(env));
}

// stream_walk.c built by `parperf cc` (with `mode`: "--sampled" or nothing for the exact hooks),
// optimised and scalar: one load per element.
std::filesystem::path build(const TempDir& tmp, const std::string& name, const std::string& mode) {
  const auto program = tmp / name;
  std::vector<std::string> arguments = {"cc"};
  if (!mode.empty()) arguments.push_back(mode);
  for (const char* argument : {"-O1", "-fno-vectorize", "-fno-slp-vectorize"})
    arguments.emplace_back(argument);
  arguments.insert(arguments.end(), {(kSources / "stream_walk.c").string(), "-o", program.string()});
  const auto compiled = parperf(arguments);
  EXPECT_EQ(compiled.exit_code, 0) << describe(compiled);
  return program;
}

// The disassembly of one function of `program`, an instruction a line.
std::vector<std::string> disassembly(const std::filesystem::path& program, const std::string& function) {
  const auto dump = run({"objdump", "-d", "--no-show-raw-insn", program.string()});
  EXPECT_EQ(dump.exit_code, 0) << describe(dump);
  std::vector<std::string> body;
  bool inside = false;
  for (const auto& line : lines_of(dump.out)) {
    if (line.ends_with("<" + function + ">:")) {
      inside = true;
    } else if (inside && line.empty()) {
      break;
    } else if (inside) {
      body.push_back(line);
    }
  }
  EXPECT_FALSE(body.empty()) << "no function " << function << " in the disassembly of " << program;
  return body;
}

TEST(SampledLocality, UnsampledAccessIsAnInlineDecrementAndABranch) {
  TempDir tmp;
  const auto program = build(tmp, "sampled", "--sampled");
  const std::regex decrement(R"(\t(dec|sub|add)[lq]?\s.*%fs:)");
  for (const std::string function : {"stream", "random_walk"}) {
    const auto body = disassembly(program, function);
    int decrements = 0, slow_calls = 0, other_calls = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
      if (std::regex_search(body[i], decrement)) {
        ++decrements;
        // The countdown's test: a conditional jump right after it, to the call out of line; what
        // follows the jump (the access itself, unsampled) must not call anything.
        ASSERT_LT(i + 2, body.size());
        EXPECT_NE(body[i + 1].find("\tje "), std::string::npos)
            << function << ": the countdown is not followed by its branch:\n"
            << body[i] << "\n"
            << body[i + 1];
        EXPECT_EQ(body[i + 2].find("call"), std::string::npos)
            << function << ": the unsampled path calls something:\n"
            << body[i + 2];
      }
      if (body[i].find("\tcall") != std::string::npos) {
        if (body[i].find("__parperf_mem_sampled") != std::string::npos) {
          ++slow_calls;
        } else {
          ++other_calls;
        }
      }
    }
    // Each loop makes one load per step, so one countdown at least; every countdown has its own
    // call out of line, and nothing else is called (the exact mode calls a hook per access).
    EXPECT_GE(decrements, 1) << function << " has no inline countdown on %fs";
    EXPECT_EQ(slow_calls, decrements) << function << ": " << decrements << " countdowns but " << slow_calls
                                      << " calls of the collector's slow path";
    EXPECT_EQ(other_calls, 0) << function << " calls something other than the sampled slow path";
  }
}

// A trace's accesses, per thread, with its bursts section.
struct Trace : format::MemoryTraceVisitor {
  std::optional<format::MemoryTraceBursts> bursts_seen;
  std::map<std::uint16_t, std::vector<format::MemoryAccessRecord>> threads;
  void bursts(const format::MemoryTraceBursts& b) override { bursts_seen = b; }
  void accesses(std::span<const format::MemoryAccessRecord> batch) override {
    for (const auto& r : batch) threads[r.thread].push_back(r);
  }
};

std::uint64_t accesses_in(const std::filesystem::path& trace_file) {
  Trace trace;
  format::read_memory_trace(trace_file, trace);
  std::uint64_t count = 0;
  for (const auto& [thread, records] : trace.threads) count += records.size();
  return count;
}

TEST(SampledLocality, CollectorRecordsBurstsOfConsecutiveAccessesWithRandomGaps) {
  TempDir tmp;
  const auto sampled = build(tmp, "sampled", "--sampled");
  const auto exact = build(tmp, "exact", "");
  constexpr std::uint64_t kBurst = 1000, kGap = 9000;
  const std::vector<std::string> arguments = {"walk", "100000", "2000000"};
  auto with = [&](const std::filesystem::path& program, const std::filesystem::path& file,
                  std::vector<std::pair<std::string, std::string>> env) {
    std::vector<std::string> argv = {program.string()};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    env.emplace_back("PARPERF_MEM_TRACE", file.string());
    env.emplace_back("PARPERF_QUIET", "1");
    const auto result = run(argv, std::move(env));
    EXPECT_EQ(result.exit_code, 0) << describe(result);
  };
  with(exact, tmp / "exact.ppm", {});
  with(sampled, tmp / "sampled.ppm",
       {{"PARPERF_MEM_BURST", std::to_string(kBurst)}, {"PARPERF_MEM_GAP", std::to_string(kGap)}});
  const std::uint64_t total = accesses_in(tmp / "exact.ppm");

  Trace trace;
  format::read_memory_trace(tmp / "sampled.ppm", trace);
  ASSERT_TRUE(trace.bursts_seen) << "the sampled trace does not say it holds bursts";
  EXPECT_EQ(trace.bursts_seen->burst_length, kBurst);
  EXPECT_EQ(trace.bursts_seen->mean_gap, kGap);
  ASSERT_EQ(trace.threads.size(), 1u);
  const auto& records = trace.threads.begin()->second;
  // Every burst but the last (cut by the program's end) holds kBurst accesses, and only its first
  // carries the gap before it.
  std::vector<std::uint64_t> lengths;
  std::uint64_t seen = 0;  // recorded and skipped: every access the program made up to the last record
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::uint64_t skipped = format::skipped_before(records[i]);
    if (i == 0 || skipped > 0) lengths.push_back(0);
    ++lengths.back();
    seen += 1 + skipped;
  }
  ASSERT_GE(lengths.size(), 2u) << records.size() << " records";
  for (std::size_t b = 0; b + 1 < lengths.size(); ++b)
    ASSERT_EQ(lengths[b], kBurst) << "burst " << b << " of " << lengths.size() << " has " << lengths[b]
                                  << " accesses, not " << kBurst;
  // The skipped counts add up to the program's accesses (the exact build's count of the same
  // instrumented loads and stores) but for the last gap, up to 2 kGap.
  EXPECT_LE(seen, total);
  EXPECT_GE(seen + 2 * kGap, total) << "the trace accounts for " << seen << " of the program's " << total
                                    << " accesses";
  // Bursts every kBurst + kGap accesses on average; the gaps are uniform in [1, 2 kGap - 1] (standard
  // deviation kGap / sqrt(3)), so over K bursts the count is off by about sqrt(K) / sqrt(3) * kGap / (kBurst
  // + kGap): 5 such deviations.
  const double expected = static_cast<double>(total) / (kBurst + kGap);
  const double tolerance = 5 * std::sqrt(expected / 3) + 1;
  EXPECT_NEAR(static_cast<double>(lengths.size()), expected, tolerance)
      << lengths.size() << " bursts in " << total << " accesses, expected one per " << kBurst + kGap;
}

}  // namespace
}  // namespace parperf::test
