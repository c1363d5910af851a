#include "analysis/collective_matching.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "analysis/rank_list.hpp"

namespace parperf::analysis {
namespace {

// One member rank's view of a communicator.
struct Member {
  const format::Profile* profile = nullptr;
  const format::Communicator* communicator = nullptr;
  std::map<std::uint64_t, const format::CollectiveInstance*> candidates;  // the sample the match can use
  double scale = 0;  // how many of the rank's collectives each candidate stands for

  std::int64_t rank() const { return profile->process.rank; }
};

using CommunicatorKey = std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>;  // hash, ordinal, size

// The instances every member's sample can hold: sequence multiples of the strides' least common
// multiple (the runtime's strides are powers of two, so that is the largest). A damaged stride
// whose multiple overflows falls back to the largest.
std::uint64_t common_stride(const std::vector<Member>& members) {
  std::uint64_t common = 1, largest = 1;
  bool overflow = false;
  for (const Member& m : members) {
    const std::uint64_t stride = std::max<std::uint64_t>(1, m.communicator->stride);
    largest = std::max(largest, stride);
    const std::uint64_t gcd = std::gcd(common, stride);
    if (!overflow && common / gcd > std::numeric_limits<std::uint64_t>::max() / stride) overflow = true;
    if (!overflow) common = common / gcd * stride;
  }
  return overflow ? largest : common;
}

void choose_candidates(std::vector<Member>& members) {
  const std::uint64_t stride = common_stride(members);
  for (Member& m : members) {
    for (const format::CollectiveInstance& x : m.communicator->instances)
      if (x.sequence % stride == 0) m.candidates.emplace(x.sequence, &x);
    m.scale = m.candidates.empty() ? 0
                                   : static_cast<double>(m.communicator->collectives) /
                                         static_cast<double>(m.candidates.size());
  }
}

std::string communicator_text(std::uint32_t size, std::uint32_t ordinal) {
  return fmt::format("the communicator of {} ranks (ordinal {})", size, ordinal);
}

std::string site_name(const format::Profile& profile, std::uint32_t site) {
  for (const format::Site& s : profile.sites)
    if (s.id == site) return s.name;
  return fmt::format("<unknown site {}>", site);
}

class Matcher {
 public:
  Matcher(const ClockCorrection& clocks, CollectiveMatching& out) : clocks_(clocks), out_(out) {}

  void match(const CommunicatorKey& key, std::vector<Member>& members) {
    const auto [hash, ordinal, size] = key;
    CommunicatorMatch summary{size, ordinal, hash, 0, 0, 0, {}};
    for (const Member& m : members)
      summary.collectives = std::max(summary.collectives, m.communicator->collectives);
    if (members.size() != size) {
      const std::size_t held = members.size();
      out_.warnings.push_back(
          fmt::format("{}: {} of its {} ranks have a profile with it, so its {} collectives are not matched "
                      "(no synchronization or time variation for them)",
                      communicator_text(size, ordinal), held, size, summary.collectives));
      out_.communicators.push_back(std::move(summary));
      return;
    }
    choose_candidates(members);
    std::set<std::uint64_t> sequences;
    for (const Member& m : members)
      for (const auto& [sequence, instance] : m.candidates) sequences.insert(sequence);
    summary.sampled = sequences.size();
    std::set<std::int64_t> short_ranks;
    for (std::uint64_t sequence : sequences) {
      bool complete = true;
      for (const Member& m : members) {
        if (m.candidates.count(sequence)) continue;
        complete = false;
        short_ranks.insert(m.rank());
      }
      if (!complete) continue;
      ++summary.matched;
      charge(sequence, members, summary);
    }
    if (summary.matched < summary.sampled)
      out_.warnings.push_back(fmt::format(
          "{}: {} of {} sampled collectives lack the record of rank {} (ended early?) and are left out of "
          "synchronization and time variation",
          communicator_text(size, ordinal), summary.sampled - summary.matched, summary.sampled,
          rank_list({short_ranks.begin(), short_ranks.end()})));
    out_.communicators.push_back(std::move(summary));
  }

  void finish() {
    for (auto& [key, charge] : charges_) out_.charges.push_back(charge);
  }

 private:
  struct Times {
    double arrive = 0, leave = 0;
  };

  // Whether member `i` is the one that arrived last; on equal arrivals, the first of them.
  static bool last_arriver(const std::vector<Times>& times, std::size_t i) {
    for (std::size_t j = 0; j < i; ++j)
      if (times[j].arrive == times[i].arrive) return false;
    return true;
  }

  void charge(std::uint64_t sequence, const std::vector<Member>& members, CommunicatorMatch& summary) {
    std::vector<Times> times;
    bool blocking = true;
    double last_arrival = -std::numeric_limits<double>::infinity();
    double first_arrival = std::numeric_limits<double>::infinity();
    double last_departure = -std::numeric_limits<double>::infinity();
    for (const Member& m : members) {
      const format::CollectiveInstance& x = *m.candidates.at(sequence);
      Times t{clocks_.apply(m.rank(), static_cast<double>(x.arrive_ns)),
              clocks_.apply(m.rank(), static_cast<double>(x.leave_ns))};
      blocking = blocking && x.leave_ns != 0;
      last_arrival = std::max(last_arrival, t.arrive);
      first_arrival = std::min(first_arrival, t.arrive);
      last_departure = std::max(last_departure, t.leave);
      times.push_back(t);
    }
    MatchedInstance shown{sequence, {}, {}};
    for (std::size_t i = 0; i < members.size(); ++i) {
      const Member& m = members[i];
      const format::CollectiveInstance& x = *m.candidates.at(sequence);
      const double early = last_arrival - times[i].arrive;
      CollectiveCharge& c = charge_of(m, x);
      c.synchronization += m.scale * early;
      if (blocking) {
        c.time_variation += m.scale * (last_departure - times[i].leave);
        const double real_sync = std::max(0.0, std::min(times[i].leave - times[i].arrive, early));
        c.real_sync += m.scale * real_sync;
        c.real_sync_max = std::max(c.real_sync_max, real_sync);
      }
      c.arrival_spread = std::max(c.arrival_spread, last_arrival - first_arrival);
      ++c.instances;
      if (times[i].arrive == last_arrival && last_arrival > first_arrival && last_arriver(times, i))
        ++c.last_arrivals;
      if (summary.instances.size() < kShownInstances) {
        if (shown.name.empty()) shown.name = site_name(*m.profile, x.site);
        shown.arrivals.push_back(
            CollectiveArrival{m.rank(), times[i].arrive / 1e9,
                              x.leave_ns != 0 ? std::optional<double>(times[i].leave / 1e9) : std::nullopt});
      }
    }
    if (summary.instances.size() < kShownInstances) summary.instances.push_back(std::move(shown));
  }

  // Charges accumulate in ns and become seconds once, when they are handed out.
  CollectiveCharge& charge_of(const Member& m, const format::CollectiveInstance& x) {
    const Location location{m.rank(), x.thread};
    auto [it, inserted] = charges_.try_emplace(std::tuple(location, x.node, x.site));
    if (inserted) {
      it->second.location = location;
      it->second.node = x.node;
      it->second.site = x.site;
    }
    return it->second;
  }

  const ClockCorrection& clocks_;
  CollectiveMatching& out_;
  std::map<std::tuple<Location, std::uint32_t, std::uint32_t>, CollectiveCharge> charges_;
};

void to_seconds(CollectiveCharge& c) {
  c.synchronization /= 1e9;
  c.time_variation /= 1e9;
  c.real_sync /= 1e9;
  c.real_sync_max /= 1e9;
  c.arrival_spread /= 1e9;
}

}  // namespace

CollectiveMatching match_collectives(const std::vector<format::Profile>& profiles,
                                     const ClockCorrection& clocks) {
  std::map<CommunicatorKey, std::vector<Member>> groups;
  for (const format::Profile& p : profiles) {
    if (!p.has_mpi) continue;
    std::set<CommunicatorKey> seen;  // a profile naming one communicator twice counts once
    for (const format::Communicator& c : p.mpi.communicators) {
      const CommunicatorKey key{c.members_hash, c.ordinal, c.size};
      if (seen.insert(key).second) groups[key].push_back(Member{&p, &c, {}, 0});
    }
  }
  // Largest communicators first (MPI_COMM_WORLD leads), then by identity: the same order every time.
  std::vector<CommunicatorKey> order;
  for (const auto& [key, members] : groups) order.push_back(key);
  std::stable_sort(order.begin(), order.end(), [](const CommunicatorKey& a, const CommunicatorKey& b) {
    return std::get<2>(a) > std::get<2>(b);
  });

  CollectiveMatching result;
  Matcher matcher(clocks, result);
  for (const CommunicatorKey& key : order) {
    std::vector<Member>& members = groups[key];
    std::sort(members.begin(), members.end(),
              [](const Member& a, const Member& b) { return a.rank() < b.rank(); });
    matcher.match(key, members);
  }
  matcher.finish();
  for (CollectiveCharge& c : result.charges) to_seconds(c);
  return result;
}

}  // namespace parperf::analysis
