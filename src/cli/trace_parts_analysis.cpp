#include "cli/trace_parts_analysis.hpp"

#include <fmt/core.h>

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/part_reductions.hpp"
#include "format/profile_files.hpp"

namespace parperf::cli {
namespace {

// What a process tells the others of each file of its share (PartBytes): its index among the run's
// traces, then its rank, events and warnings, or the error that stopped its reading.
constexpr std::uint8_t kRead = 0;
constexpr std::uint8_t kFailed = 1;

struct FileSeen {
  bool read = false;
  std::int64_t rank = 0;
  std::uint64_t events = 0;
  std::vector<std::string> warnings;
  std::string error;
};

std::vector<std::uint8_t> look_at_share(const analysis::RunData& run, const std::vector<std::string>& names,
                                        std::uint32_t me, std::uint32_t processes) {
  analysis::PartBytes out;
  for (std::size_t i = me; i < names.size(); i += processes) {
    out.put(static_cast<std::uint64_t>(i));
    try {
      std::vector<std::string> warnings;
      const analysis::RankTrace rank = analysis::read_rank_trace(run, names[i], warnings);
      std::uint64_t events = 0;
      for (const format::TraceBlock& block : rank.trace->blocks) events += block.header.event_count;
      out.put(kRead);
      out.put(rank.rank);
      out.put(events);
      out.put(static_cast<std::uint64_t>(warnings.size()));
      for (const std::string& w : warnings) out.put_text(w);
    } catch (const analysis::LoadError& e) {
      out.put(kFailed);
      out.put_text(e.what());
    }
  }
  return out.release();
}

// Every file's, by index, on every process.
std::vector<FileSeen> files_seen(const std::vector<std::vector<std::uint8_t>>& all, std::size_t files) {
  std::vector<FileSeen> seen(files);
  std::vector<bool> told(files, false);
  try {
    for (const std::vector<std::uint8_t>& each : all)
      for (analysis::PartBytesReader in(each); !in.done();) {
        const auto index = in.take<std::uint64_t>();
        if (index >= files || told[index]) throw std::logic_error("a file of no trace");
        told[index] = true;
        FileSeen& f = seen[index];
        if (in.take<std::uint8_t>() == kFailed) {
          f.error = in.take_text();
          continue;
        }
        f.read = true;
        f.rank = in.take<std::int64_t>();
        f.events = in.take<std::uint64_t>();
        for (auto n = in.take<std::uint64_t>(); n > 0; --n) f.warnings.push_back(in.take_text());
      }
  } catch (const std::logic_error&) {
    throw std::runtime_error("parallel trace analysis: a process sent a damaged description of its traces");
  }
  for (std::size_t i = 0; i < files; ++i)
    if (!told[i]) throw std::runtime_error("parallel trace analysis: no process read " + std::to_string(i));
  return seen;
}

}  // namespace

TracedRun analyse_traces_by_parts(const analysis::RunData& run, const analysis::SiteTable& sites,
                                  MpiPartExchange& exchange) {
  const std::vector<std::string> names = format::find_traces(run.directory);  // the same list everywhere
  TracedRun out;
  if (names.empty()) {
    out.by_parts = true;  // nothing to analyse: every process goes on to the report alike
    return out;
  }
  const std::vector<FileSeen> seen = files_seen(
      exchange.gather_all(look_at_share(run, names, exchange.part(), exchange.parts())), names.size());
  // As load_traces: the first file that cannot be read stops the report, the same on every process.
  for (const FileSeen& f : seen)
    if (!f.read) throw analysis::LoadError(f.error);

  // The run's ranks in order, joined to their profiles, with the warnings a serial report gives; then
  // the parts, and this process's own files opened.
  std::vector<analysis::RankTrace> ranks;
  std::vector<std::string> warnings;
  std::map<std::int64_t, std::uint64_t> events;
  for (std::size_t i = 0; i < names.size(); ++i) {
    analysis::RankTrace rank;
    rank.rank = seen[i].rank;
    rank.file = names[i];
    ranks.push_back(std::move(rank));
    events[seen[i].rank] = seen[i].events;
    warnings.insert(warnings.end(), seen[i].warnings.begin(), seen[i].warnings.end());
  }
  analysis::TraceRun traces = analysis::assemble_traces(run, std::move(ranks), std::move(warnings));
  std::vector<std::uint64_t> by_rank;
  for (const analysis::RankTrace& rank : traces.ranks) by_rank.push_back(events[rank.rank]);
  const analysis::RankPartition parts = analysis::partition_ranks(by_rank, exchange.parts());
  for (std::size_t r = parts.first_rank[exchange.part()]; r < parts.first_rank[exchange.part() + 1]; ++r) {
    analysis::RankTrace& rank = traces.ranks[r];
    std::vector<std::string> again;  // told already
    rank.trace = analysis::read_rank_trace(run, rank.file, again).trace;
    if (rank.trace->process.rank != rank.rank)
      throw std::runtime_error(rank.file + ": the file changed while it was analysed");
  }
  analysis::attach_sites(traces, sites);
  try {
    out.analysis = analysis::analyse_traces_by_parts(traces, parts, exchange);
    out.by_parts = true;
  } catch (const analysis::NotByParts& e) {  // thrown by every process at once: the first analyses alone
    if (exchange.part() == 0) {
      fmt::print(stderr, "parperf: note: {}: the first analysis process analyses the run alone\n", e.what());
      out.traces = analysis::load_traces(run);
      analysis::attach_sites(*out.traces, sites);
    }
  }
  return out;
}

}  // namespace parperf::cli
