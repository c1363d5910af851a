#include "export/timeline_names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace parperf::exports {

TimelineNames::TimelineNames(const analysis::TraceRun& traces, const analysis::SiteTable& sites) {
  for (const analysis::RankTrace& trace : traces.ranks) {
    RankInfo info;
    info.rank = trace.rank;
    info.pid = trace.trace->process.pid;
    info.profile = trace.profile;
    const format::TraceFile& file = *trace.trace;
    const std::uint64_t ticks_per_second = file.clock && file.clock->ticks_per_second
                                               ? file.clock->ticks_per_second
                                               : file.process.ticks_per_second;
    info.ns_per_tick = ticks_per_second ? 1e9 / static_cast<double>(ticks_per_second) : 1.0;
    RankNames& names = names_[trace.rank];
    if (trace.profile) {
      info.hostname = trace.profile->process.hostname;
      for (const format::Site& s : trace.profile->sites) {
        const analysis::SiteLocation where = sites.location(trace.rank, s);
        const std::string source =
            where.file.empty() || where.line <= 0 ? where.file : fmt::format("{}:{}", where.file, where.line);
        names.sites[s.id] = SiteInfo{where.name_of(s), s.kind, where.file, where.line, source};
      }
      for (const format::Event& e : trace.profile->events) names.events[e.id] = e.name;
    }
    info.label = info.hostname.empty()
                     ? fmt::format("rank {} (pid {})", info.rank, info.pid)
                     : fmt::format("rank {} ({}, pid {})", info.rank, info.hostname, info.pid);
    std::set<std::uint32_t> threads;
    for (const format::TraceBlock& block : trace.trace->blocks) threads.insert(block.header.thread);
    for (std::uint32_t index : threads) {
      ThreadInfo thread{index, 0};
      if (trace.profile)
        for (const format::Thread& t : trace.profile->threads)
          if (t.index == index) thread.os_tid = t.os_tid;
      info.threads.push_back(thread);
    }
    ranks_.push_back(std::move(info));
  }
}

const TimelineNames::RankNames& TimelineNames::names_of(std::int64_t rank) const {
  static const RankNames kNone;
  const auto it = names_.find(rank);
  return it == names_.end() ? kNone : it->second;
}

const SiteInfo& TimelineNames::site(std::int64_t rank, std::uint32_t id) const {
  const RankNames& names = names_of(rank);
  if (const auto it = names.sites.find(id); it != names.sites.end()) return it->second;
  SiteInfo& made = unknown_[rank].sites[id];
  if (made.name.empty()) made.name = fmt::format("site {}", id);
  return made;
}

const std::string& TimelineNames::event(std::int64_t rank, std::uint32_t id) const {
  const RankNames& names = names_of(rank);
  if (const auto it = names.events.find(id); it != names.events.end()) return it->second;
  std::string& made = unknown_[rank].events[id];
  if (made.empty()) made = fmt::format("event {}", id);
  return made;
}

const RankInfo* TimelineNames::find_rank(std::int64_t rank) const {
  const auto it = std::lower_bound(ranks_.begin(), ranks_.end(), rank,
                                   [](const RankInfo& r, std::int64_t v) { return r.rank < v; });
  return it == ranks_.end() || it->rank != rank ? nullptr : &*it;
}

}  // namespace parperf::exports
