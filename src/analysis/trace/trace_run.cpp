#include "analysis/trace/trace_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "analysis/run_loader.hpp"
#include "format/profile_files.hpp"
#include "format/profile_reader.hpp"

namespace parperf::analysis {

bool has_traces(const std::filesystem::path& directory) { return !format::find_traces(directory).empty(); }

namespace {

// Each thread's blocks are numbered 0, 1, 2, ... as the writer wrote them (trace_records.hpp). Two
// blocks with one number are damage that would count their events twice: refused. A number skipped is
// a block that never reached the file (lost while tracing, or cut out): its events are missing from
// the timeline and every analysis of it, which is said. (Blocks missing after the last are a trace cut
// short, said as such.)
void check_block_numbers(const format::TraceFile& trace, const std::filesystem::path& path,
                         const std::string& name, std::vector<std::string>& warnings) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> numbers;  // (thread, sequence)
  numbers.reserve(trace.blocks.size());
  for (const format::TraceBlock& block : trace.blocks)
    numbers.emplace_back(block.header.thread, block.header.sequence);
  std::sort(numbers.begin(), numbers.end());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const auto [thread, sequence] = numbers[i];
    const bool first = i == 0 || numbers[i - 1].first != thread;
    const std::uint64_t expected = first ? 0 : numbers[i - 1].second + 1;
    if (!first && sequence == numbers[i - 1].second)
      throw LoadError(fmt::format("{}: corrupt: thread {} has two blocks of events numbered {}",
                                  path.string(), thread, sequence));
    if (sequence != expected)
      warnings.push_back(fmt::format(
          "{}: thread {} lacks {} block{} of events (numbers {} to {}; lost while tracing, or cut out of the "
          "file): its timeline and every figure from the trace miss them",
          name, thread, sequence - expected, sequence - expected == 1 ? "" : "s", expected, sequence - 1));
  }
}

}  // namespace

RankTrace read_rank_trace(const RunData& run, const std::string& name, std::vector<std::string>& warnings) {
  RankTrace rank;
  rank.file = name;
  try {
    rank.trace = std::make_shared<const format::TraceFile>(format::open_trace_index(run.directory / name));
  } catch (const format::FormatError& e) {
    throw LoadError(e.what());
  }
  rank.rank = rank.trace->process.rank;
  check_block_numbers(*rank.trace, run.directory / name, name, warnings);
  if (!rank.trace->cut_short.empty())
    warnings.push_back(fmt::format("{}: the trace ends early ({})", name, rank.trace->cut_short));
  if (rank.trace->clock && rank.trace->clock->lost_events)
    warnings.push_back(fmt::format("{}: {} events were not recorded", name, rank.trace->clock->lost_events));
  std::uint64_t lost_samples = 0;
  for (const format::TraceSampleBlock& block : rank.trace->sample_blocks) lost_samples += block.header.lost;
  if (lost_samples)
    warnings.push_back(fmt::format(
        "{}: {} call-path samples did not reach the trace (the trace writer fell behind): the profile counts "
        "them, the trace's timeline does not show them",
        name, lost_samples));
  if (rank.trace->clock && rank.trace->clock->writer_wait_ns)
    warnings.push_back(fmt::format(
        "{}: the program's threads waited {:.3g} ms in all for the trace writer (events came faster than it "
        "could write them): that time is in the measured intervals",
        name, static_cast<double>(rank.trace->clock->writer_wait_ns) * 1e-6));
  return rank;
}

TraceRun assemble_traces(const RunData& run, std::vector<RankTrace> ranks,
                         std::vector<std::string> warnings) {
  TraceRun traces;
  traces.ranks = std::move(ranks);
  std::stable_sort(traces.ranks.begin(), traces.ranks.end(),
                   [](const RankTrace& a, const RankTrace& b) { return a.rank < b.rank; });
  for (std::size_t i = 1; i < traces.ranks.size(); ++i)
    if (traces.ranks[i].rank == traces.ranks[i - 1].rank)
      throw LoadError(fmt::format("{}: rank {} also has the trace {}", traces.ranks[i].file,
                                  traces.ranks[i].rank, traces.ranks[i - 1].file));
  std::map<std::int64_t, const format::Profile*> profiles;
  for (const format::Profile& p : run.profiles) profiles[p.process.rank] = &p;
  for (RankTrace& rank : traces.ranks) {
    const auto profile = profiles.find(rank.rank);
    if (profile != profiles.end())
      rank.profile = profile->second;
    else
      traces.warnings.push_back(fmt::format("{}: rank {} left no profile: its sites and events have no names",
                                            rank.file, rank.rank));
  }
  for (std::string& warning : warnings) traces.warnings.push_back(std::move(warning));
  for (const auto& [rank, profile] : profiles) {
    const bool traced = std::any_of(traces.ranks.begin(), traces.ranks.end(),
                                    [&](const RankTrace& t) { return t.rank == rank; });
    if (!traced && !traces.ranks.empty())
      traces.warnings.push_back(fmt::format("rank {} has a profile and no event trace", rank));
  }
  traces.clocks = correct_clocks(run.profiles);
  return traces;
}

TraceRun load_traces(const RunData& run) {
  std::vector<RankTrace> ranks;
  std::vector<std::string> warnings;
  for (const std::string& name : format::find_traces(run.directory))
    ranks.push_back(read_rank_trace(run, name, warnings));
  return assemble_traces(run, std::move(ranks), std::move(warnings));
}

void attach_sites(TraceRun& traces, const SiteTable& sites) {
  for (RankTrace& rank : traces.ranks) rank.sites = &sites;
}

std::vector<std::unique_ptr<ThreadEvents>> all_thread_streams(const TraceRun& traces) {
  std::vector<std::unique_ptr<ThreadEvents>> streams;
  for (const RankTrace& rank : traces.ranks)
    for (auto& stream : thread_streams(rank.trace)) streams.push_back(std::move(stream));
  return streams;
}

std::string site_name(const RankTrace& rank, std::uint32_t site) {
  if (rank.profile)
    for (const format::Site& s : rank.profile->sites)
      if (s.id == site) return s.name;
  return fmt::format("site {}", site);
}

std::string event_name(const RankTrace& rank, std::uint32_t event) {
  if (rank.profile)
    for (const format::Event& e : rank.profile->events)
      if (e.id == event) return e.name;
  return fmt::format("event {}", event);
}

const RankTrace* rank_trace(const TraceRun& traces, std::int64_t rank) {
  const auto at = std::lower_bound(traces.ranks.begin(), traces.ranks.end(), rank,
                                   [](const RankTrace& r, std::int64_t wanted) { return r.rank < wanted; });
  return at != traces.ranks.end() && at->rank == rank ? &*at : nullptr;
}

std::uint64_t trace_events(const TraceRun& traces) {
  std::uint64_t events = 0;
  for (const RankTrace& rank : traces.ranks)
    if (rank.trace)
      for (const format::TraceBlock& block : rank.trace->blocks) events += block.header.event_count;
  return events;
}

}  // namespace parperf::analysis
