// What the exports call things: each rank's sites (name, kind, source file and line) and user
// events by their ids, and each rank's and thread's label. Built once from the traces' profiles and
// the symbolized site table, so that writing an event is a lookup, never a search of a profile.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/site_table.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::exports {

struct SiteInfo {
  std::string name;        // "MPI_Send", "solve", "site 12" when the profile does not have it
  std::uint32_t kind = 0;  // format::SiteKind
  std::string file;        // empty when unknown
  std::int64_t line = 0;
  std::string source;  // "file:line", "file", or empty: what the exports show
};

struct ThreadInfo {
  std::uint32_t index = 0;  // the profile's ThreadRecord::index
  std::int64_t os_tid = 0;  // 0 when the profile does not have the thread
};

struct RankInfo {
  std::int64_t rank = 0;
  std::int64_t pid = 0;
  std::string hostname;
  std::string label;                // "rank 0 (node1, pid 4242)"
  std::vector<ThreadInfo> threads;  // every thread with events in the trace, by index
  // An operation's duration, wait and sync are in ticks of the rank's clock: this many ns each, as
  // the merge converts time stamps (the trace's calibration, else its estimate at start).
  double ns_per_tick = 1;
  const format::Profile* profile = nullptr;  // null when the rank left no profile
};

class TimelineNames {
 public:
  TimelineNames(const analysis::TraceRun& traces, const analysis::SiteTable& sites);

  // The site or user event `id` of `rank`; an unknown one gets a SiteInfo named "site <id>".
  const SiteInfo& site(std::int64_t rank, std::uint32_t id) const;
  const std::string& event(std::int64_t rank, std::uint32_t id) const;
  // Every traced rank, by rank.
  const std::vector<RankInfo>& ranks() const { return ranks_; }
  // The traced rank `rank`, null when it has no trace.
  const RankInfo* find_rank(std::int64_t rank) const;

 private:
  struct RankNames {
    std::unordered_map<std::uint32_t, SiteInfo> sites;
    std::unordered_map<std::uint32_t, std::string> events;
  };
  const RankNames& names_of(std::int64_t rank) const;

  std::vector<RankInfo> ranks_;
  std::unordered_map<std::int64_t, RankNames> names_;
  // Names made up on demand for ids a profile lacks; mutable as a cache of constant answers.
  mutable std::unordered_map<std::int64_t, RankNames> unknown_;
};

}  // namespace parperf::exports
