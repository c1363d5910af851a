#include "analysis/trace/wait_tally.hpp"

#include <algorithm>
#include <vector>

namespace parperf::analysis {
namespace {

void add_to(WaitShare& share, double lost_ns) {
  share.lost_ns += lost_ns;
  ++share.instances;
}

// Most time first; equal times keep their (map) order, so the result does not depend on chance.
template <class T>
void by_time_lost(std::vector<T>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const T& a, const T& b) { return a.lost_ns > b.lost_ns; });
}

}  // namespace

void WaitTally::add(WaitPattern pattern, const RankTrace& rank, std::uint32_t thread, std::uint32_t site,
                    double lost_ns, std::optional<Culprit> cause) {
  if (!(lost_ns > 0)) return;
  Pattern& p = patterns_[static_cast<std::size_t>(pattern)];
  add_to(p.total, lost_ns);
  add_to(p.sites[{site_location(rank, site), site_name(rank, site)}], lost_ns);
  add_to(p.waiting[{rank.rank, thread}], lost_ns);
  if (cause) add_to(p.causes[{cause->rank, cause->thread ? std::int64_t{*cause->thread} : -1}], lost_ns);
}

WaitStates WaitTally::result() const {
  WaitStates states;
  for (int i = 0; i < kWaitPatternCount; ++i) {
    const Pattern& p = patterns_[static_cast<std::size_t>(i)];
    if (p.total.instances == 0) continue;
    PatternWaits out;
    out.pattern = static_cast<WaitPattern>(i);
    out.lost_ns = p.total.lost_ns;
    out.instances = p.total.instances;
    for (const auto& [key, share] : p.sites) {
      WaitSite site;
      static_cast<WaitShare&>(site) = share;
      site.location = key.first;
      site.name = key.second;
      out.sites.push_back(std::move(site));
    }
    for (const auto& [key, share] : p.waiting) {
      WaitingLocation w;
      static_cast<WaitShare&>(w) = share;
      w.rank = key.first;
      w.thread = key.second;
      out.waiting.push_back(w);
    }
    for (const auto& [key, share] : p.causes) {
      WaitCause c;
      static_cast<WaitShare&>(c) = share;
      c.rank = key.first;
      if (key.second >= 0) c.thread = static_cast<std::uint32_t>(key.second);
      out.causes.push_back(c);
    }
    by_time_lost(out.sites);
    by_time_lost(out.waiting);
    by_time_lost(out.causes);
    states.patterns.push_back(std::move(out));
  }
  return states;
}

}  // namespace parperf::analysis
