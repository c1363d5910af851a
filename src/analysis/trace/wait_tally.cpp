#include "analysis/trace/wait_tally.hpp"

#include <algorithm>
#include <vector>

namespace parperf::analysis {
namespace {

// Most time first; equal times keep their (map) order, so the result does not depend on chance.
template <class T>
void by_time_lost(std::vector<T>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const T& a, const T& b) { return a.lost_ns > b.lost_ns; });
}

}  // namespace

void WaitTally::Share::add(double lost_ns) {
  lost.add(lost_ns);
  ++instances;
}

void WaitTally::Share::add(const Share& other) {
  lost.add(other.lost);
  instances += other.instances;
}

void WaitTally::add(WaitPattern pattern, const RankTrace& rank, std::uint32_t thread, std::uint32_t site,
                    double lost_ns, std::optional<Culprit> cause) {
  if (!(lost_ns > 0)) return;
  Pattern& p = patterns_[static_cast<std::size_t>(pattern)];
  p.total.add(lost_ns);
  Share*& at_site = site_shares_[{static_cast<int>(pattern), rank.rank, site}];
  if (!at_site) at_site = &p.sites[{site_location(rank, site), site_name(rank, site)}];
  at_site->add(lost_ns);
  p.waiting[{rank.rank, thread}].add(lost_ns);
  if (cause) p.causes[{cause->rank, cause->thread ? std::int64_t{*cause->thread} : -1}].add(lost_ns);
}

WaitStates WaitTally::result() const {
  WaitStates states;
  for (int i = 0; i < kWaitPatternCount; ++i) {
    const Pattern& p = patterns_[static_cast<std::size_t>(i)];
    if (p.total.instances == 0) continue;
    PatternWaits out;
    out.pattern = static_cast<WaitPattern>(i);
    out.lost_ns = p.total.lost.ns();
    out.instances = p.total.instances;
    for (const auto& [key, share] : p.sites) {
      WaitSite site;
      static_cast<WaitShare&>(site) = share.result();
      site.location = key.first;
      site.name = key.second;
      out.sites.push_back(std::move(site));
    }
    for (const auto& [key, share] : p.waiting) {
      WaitingLocation w;
      static_cast<WaitShare&>(w) = share.result();
      w.rank = key.first;
      w.thread = key.second;
      out.waiting.push_back(w);
    }
    for (const auto& [key, share] : p.causes) {
      WaitCause c;
      static_cast<WaitShare&>(c) = share.result();
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

namespace {

void write_share(PartBytes& out, const ExactSum& lost, std::uint64_t instances) {
  out.put(lost.whole());
  out.put(lost.fraction());
  out.put(instances);
}

template <class Key, class Share>
void write_rows(PartBytes& out, const std::map<Key, Share>& rows, void (*write_key)(PartBytes&, const Key&)) {
  out.put(static_cast<std::uint64_t>(rows.size()));
  for (const auto& [key, share] : rows) {
    write_key(out, key);
    write_share(out, share.lost, share.instances);
  }
}

void write_text_key(PartBytes& out, const std::pair<std::string, std::string>& key) {
  out.put_text(key.first);
  out.put_text(key.second);
}
template <class A, class B>
void write_plain_key(PartBytes& out, const std::pair<A, B>& key) {
  out.put(key.first);
  out.put(key.second);
}

}  // namespace

void WaitTally::write(PartBytes& out) const {
  for (const Pattern& p : patterns_) {
    write_share(out, p.total.lost, p.total.instances);
    write_rows(out, p.sites, &write_text_key);
    write_rows(out, p.waiting, &write_plain_key<std::int64_t, std::uint32_t>);
    write_rows(out, p.causes, &write_plain_key<std::int64_t, std::int64_t>);
  }
}

void WaitTally::add(PartBytesReader& in) {
  const auto share = [&] {
    Share s;
    const auto whole = in.take<std::uint64_t>();
    const auto fraction = in.take<std::uint64_t>();
    s.lost = ExactSum::of(whole, fraction);
    s.instances = in.take<std::uint64_t>();
    return s;
  };
  for (Pattern& p : patterns_) {
    p.total.add(share());
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
      std::string location = in.take_text();
      std::string name = in.take_text();
      p.sites[{std::move(location), std::move(name)}].add(share());
    }
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
      const auto rank = in.take<std::int64_t>();
      const auto thread = in.take<std::uint32_t>();
      p.waiting[{rank, thread}].add(share());
    }
    for (auto n = in.take<std::uint64_t>(); n > 0; --n) {
      const auto rank = in.take<std::int64_t>();
      const auto thread = in.take<std::int64_t>();
      p.causes[{rank, thread}].add(share());
    }
  }
}

}  // namespace parperf::analysis
