// Hand-built traced runs for the tests of the trace analyses (messages, clock check, wait states):
// each rank's decoded trace and the profile that names its sites and communicators, with the times
// given in milliseconds of the rank's own clock (1 tick = 1 ns, the process's origin at tick 0), so
// every expected figure follows from the events by construction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trace/trace_run.hpp"
#include "format/site_kinds.hpp"

namespace parperf::test {

inline constexpr std::uint64_t kWorldHash = 0x5EED;
inline constexpr double kMs = 1e6;  // ns

inline std::uint64_t ms(double v) { return static_cast<std::uint64_t>(v * kMs + 0.5); }

class TraceRunBuilder {
 public:
  // A rank with a profile whose MPI_COMM_WORLD (members_hash kWorldHash, `size` members) has the
  // local id `world_id` (other ids hold communicators of its own, so that events name the world by
  // a rank-local id that differs between ranks).
  TraceRunBuilder& rank(std::int64_t rank, std::uint32_t size, std::uint32_t world_id = 0) {
    format::Profile& p = profiles_.emplace_back();
    p.process.rank = rank;
    p.has_mpi = true;
    for (std::uint32_t id = 0; id <= world_id; ++id) {
      format::Communicator c;
      c.id = id;
      c.size = id == world_id ? size : 1;
      c.members_hash = id == world_id ? kWorldHash : 0x1000 + static_cast<std::uint64_t>(rank);
      p.mpi.communicators.push_back(c);
    }
    auto trace = std::make_shared<format::TraceFile>();
    trace->process.rank = rank;
    trace->process.ticks_per_second = 1'000'000'000;
    trace->clock = format::TraceClockRecord{.ticks_per_second = 1'000'000'000};
    traces_.push_back(trace);
    world_ids_.push_back(world_id + 1);
    return *this;
  }

  // A site of the last rank's profile; returns its id.
  std::uint32_t site(format::SiteKind kind, std::string name, std::string file = "", std::int64_t line = 0) {
    format::Profile& p = profiles_.back();
    format::Site s;
    s.id = static_cast<std::uint32_t>(p.sites.size()) + 1;
    s.kind = static_cast<std::uint32_t>(kind);
    s.name = std::move(name);
    s.file = std::move(file);
    s.line = line;
    p.sites.push_back(s);
    return s.id;
  }

  // An operation of the last rank on its world communicator (communicator 0: none): from `start_ms`
  // to `end_ms` on the rank's clock, on `thread`.
  TraceRunBuilder& op(std::uint32_t site, double start_ms, double end_ms, std::int64_t partner,
                      std::int64_t match, std::uint64_t bytes = 0, std::uint32_t thread = 0,
                      bool on_world = true) {
    format::TraceEvent e;
    e.kind = format::TraceEventKind::operation;
    e.ticks = ms(start_ms);
    e.site = site;
    e.duration = ms(end_ms) - ms(start_ms);
    e.partner = partner;
    e.communicator = on_world ? world_ids_.back() : 0;
    e.match = match;
    e.bytes = bytes;
    return event(e, thread);
  }

  // Any event of the last rank, after the thread's earlier ones.
  TraceRunBuilder& event(const format::TraceEvent& e, std::uint32_t thread = 0) {
    format::TraceFile& t = *traces_.back();
    for (format::TraceBlock& b : t.blocks)
      if (b.header.thread == thread) {
        b.events.push_back(e);
        return *this;
      }
    format::TraceBlock& b = t.blocks.emplace_back();
    b.header.thread = thread;
    b.events.push_back(e);
    return *this;
  }

  // The run's clock correction adds `offset_ms` to rank `rank`'s times (as the MPI collector's clock
  // exchanges would have measured it for a clock that reads that much less than rank 0's).
  TraceRunBuilder& correct_clock(std::int64_t rank, double offset_ms) {
    analysis::RankClock& c = clocks_.clocks[rank];
    c.rank = rank;
    c.corrected = true;
    c.offset = offset_ms * kMs;
    return *this;
  }

  analysis::TraceRun build() const {
    analysis::TraceRun run;
    for (std::size_t i = 0; i < traces_.size(); ++i) {
      analysis::RankTrace r;
      r.rank = traces_[i]->process.rank;
      r.file = "trace." + std::to_string(r.rank) + ".ppt";
      for (format::TraceBlock& b : traces_[i]->blocks) {
        b.header.event_count = static_cast<std::uint32_t>(b.events.size());
        // Closed when its last event ended, as the runtime closes a trace (the reader refuses an
        // event longer than the trace).
        if (traces_[i]->clock)
          for (const format::TraceEvent& e : b.events)
            traces_[i]->clock->end_ticks = std::max(traces_[i]->clock->end_ticks, e.ticks + e.duration);
      }
      r.trace = traces_[i];
      r.profile = &profiles_[i];
      run.ranks.push_back(std::move(r));
    }
    run.clocks = clocks_;
    return run;
  }

 private:
  std::deque<format::Profile> profiles_;  // stable addresses: the run points to them
  std::vector<std::shared_ptr<format::TraceFile>> traces_;
  std::vector<std::uint32_t> world_ids_;  // the events' communicator id of each rank's world
  analysis::ClockCorrection clocks_;
};

}  // namespace parperf::test
