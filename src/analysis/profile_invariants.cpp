#include "analysis/profile_invariants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parperf::analysis {
namespace {

using format::Node;
using format::OperationStats;
using format::Thread;
__extension__ typedef unsigned __int128 Wide;  // sums of two 64-bit times cannot overflow

// Seconds to the nanosecond, so that two close values are told apart: "1.000000001 s", "0.4 s".
std::string seconds(Wide ns) {
  std::string text = fmt::format("{}.{:09}", static_cast<std::uint64_t>(ns / 1'000'000'000),
                                 static_cast<std::uint64_t>(ns % 1'000'000'000));
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text + " s";
}

// Whether `part`, a sum of `entries` measured durations, exceeds `whole` by more than rounding.
bool exceeds(Wide part, std::uint64_t entries, Wide whole, double relative_slack = kRelativeSlack) {
  const auto relative = static_cast<Wide>(static_cast<double>(whole) * relative_slack);
  return part > whole + kSlackNs + static_cast<Wide>(kRoundingNsPerEntry) * (entries + 1) + relative;
}

std::uint64_t entries(const Node& n) { return n.count + (n.open() ? 1 : 0); }
Wide wide_entries(const Node& n) { return Wide{n.count} + (n.open() ? 1 : 0); }

// The invariants of one thread's records, named in the user's terms.
class ThreadChecker {
 public:
  ThreadChecker(const Thread& thread, const std::unordered_map<std::uint32_t, std::string>& site_names)
      : thread_(thread), site_names_(site_names) {}

  std::optional<std::string> check() const {
    const Thread& t = thread_;
    if (t.end_ns < t.start_ns)
      return fmt::format("thread {}: ends at {} before it starts at {}", t.index, seconds(t.end_ns),
                         seconds(t.start_ns));
    const Wide lifetime = Wide{t.end_ns - t.start_ns};
    if (exceeds(t.parked_ns, 0, lifetime, kLifetimeSlack))
      return fmt::format("thread {}: parked {} exceeds the thread's lifetime {}", t.index,
                         seconds(t.parked_ns), seconds(lifetime));
    if (auto problem = counts()) return problem;
    // Each node's exec; for a context node (no time of its own), its nearest timed ancestor's.
    std::vector<Wide> exec(t.nodes.size());
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      const Node& n = t.nodes[i];
      const Wide own = static_cast<Wide>(n.sum_ns) + n.open_ns;
      const Wide whole = i == 0 ? Wide{t.end_ns - t.start_ns} : exec[n.parent];
      if (exceeds(own, entries(n), whole, i == 0 ? kLifetimeSlack : kRelativeSlack))
        return fmt::format("{}: its time {} exceeds {} {}", node_text(i), seconds(own),
                           i == 0 ? "the thread's lifetime" : "its parent's time", seconds(whole));
      exec[i] = n.context() && i > 0 ? exec[n.parent] : own;
      if (auto problem = extremes(n.count, n.sum_ns, n.min_ns, n.max_ns))
        return node_text(i) + ": " + *problem;
      for (const OperationStats& o : n.operations)
        if (auto problem = operation(o, exec[i])) return operation_text(i, o) + ": " + *problem;
    }
    return std::nullopt;
  }

 private:
  // The most of any count the thread's lifetime allows.
  Wide count_limit() const {
    const Wide limit = (Wide{thread_.end_ns - thread_.start_ns} + kSlackNs) * kMaxCountsPerNs;
    return std::min<Wide>(limit, kMaxCount);
  }

  std::optional<std::string> count(std::uint64_t value, const std::string& where, const char* field) const {
    if (value <= count_limit()) return std::nullopt;
    return fmt::format("{}: {} {} in a thread that lived {} (at most {})", where, value, field,
                       seconds(Wide{thread_.end_ns - thread_.start_ns}),
                       static_cast<std::uint64_t>(count_limit()));
  }

  std::optional<std::string> counts() const {
    for (std::size_t i = 0; i < thread_.nodes.size(); ++i) {
      const Node& n = thread_.nodes[i];
      for (auto problem : {count(n.count, node_text(i), "entries"),
                           count(n.iterations.count, node_text(i), "iteration marks")})
        if (problem) return problem;
      for (const OperationStats& o : n.operations)
        if (auto problem = count(o.count, operation_text(i, o), "calls")) return problem;
      for (const format::EventStats& e : n.events) {
        const std::string where = fmt::format("{}, user event {}", node_text(i), e.event);
        for (auto problem : {count(e.count, where, "ends"), count(e.starts, where, "starts"),
                             count(e.atomics, where, "atomic events")})
          if (problem) return problem;
      }
    }
    return std::nullopt;
  }

  static std::optional<std::string> extremes(std::uint64_t count, std::uint64_t sum, std::uint64_t min,
                                             std::uint64_t max) {
    if (count == 0) return std::nullopt;
    if (max > sum)
      return fmt::format("the longest entry {} exceeds the sum of the {} entries {}", seconds(max), count,
                         seconds(sum));
    if (min > max)
      return fmt::format("the shortest entry {} exceeds the longest {}", seconds(min), seconds(max));
    return std::nullopt;
  }

  static std::optional<std::string> operation(const OperationStats& o, Wide interval) {
    if (auto problem = extremes(o.count, o.sum_ns, o.min_ns, o.max_ns)) return problem;
    if (exceeds(o.sum_ns, o.count, interval))
      return fmt::format("its time {} exceeds its interval's time {}", seconds(o.sum_ns), seconds(interval));
    if (exceeds(static_cast<Wide>(o.wait_ns) + o.sync_ns, o.count, o.sum_ns))
      return fmt::format("wait {} + sync {} exceed the operation's time {}", seconds(o.wait_ns),
                         seconds(o.sync_ns), seconds(o.sum_ns));
    return std::nullopt;
  }

  std::string site_text(std::uint32_t site) const {
    const auto name = site_names_.find(site);
    return fmt::format("site {} (\"{}\")", site, name == site_names_.end() ? "?" : name->second);
  }
  std::string node_text(std::size_t node) const {
    return fmt::format("thread {}, node {} at {}", thread_.index, node, site_text(thread_.nodes[node].site));
  }
  std::string operation_text(std::size_t node, const OperationStats& o) const {
    return fmt::format("{}, the operation at {}", node_text(node), site_text(o.site));
  }

  const Thread& thread_;
  const std::unordered_map<std::uint32_t, std::string>& site_names_;
};

// The entries and iteration marks of a thread, each of which paid a probe.
std::pair<Wide, Wide> entries_and_marks(const Thread& t) {
  Wide entries = 0, marks = 0;
  for (const Node& n : t.nodes) {
    entries += wide_entries(n);
    marks += n.iterations.count;
  }
  return {entries, marks};
}

// A thread's probe costs (the compensation subtracts them from every interval): the part inside an
// entry is part of the entry's cost, and all its probes together ran inside its lifetime.
std::optional<std::string> probe_costs(const format::ProbeCostsRecord& c, const format::Profile& profile) {
  const auto where = fmt::format("the probe costs of thread {}", c.thread);
  if (c.inside_ns > c.entry_ns)
    return fmt::format("{}: the part inside an entry {} exceeds the entry's cost {}", where,
                       seconds(c.inside_ns), seconds(c.entry_ns));
  const auto thread = std::find_if(profile.threads.begin(), profile.threads.end(),
                                   [&](const Thread& t) { return t.index == c.thread; });
  if (thread == profile.threads.end())
    return fmt::format("{}: the profile holds no thread {}", where, c.thread);
  const Wide lifetime = Wide{thread->end_ns - thread->start_ns};
  for (const auto& [cost, what] :
       {std::pair{c.entry_ns, "an entry's cost"}, std::pair{c.mark_ns, "a mark's cost"}})
    if (exceeds(cost, 0, lifetime, kLifetimeSlack))
      return fmt::format("{}: {} {} exceeds the thread's lifetime {}", where, what, seconds(cost),
                         seconds(lifetime));
  const auto [entries, marks] = entries_and_marks(*thread);
  // In floating point: a forged count times a forged cost passes even 128 bits.
  const long double all = static_cast<long double>(entries) * static_cast<long double>(c.entry_ns) +
                          static_cast<long double>(marks) * static_cast<long double>(c.mark_ns);
  if (all > static_cast<long double>(lifetime) * kProbeEstimateFactor + kSlackNs)
    return fmt::format(
        "{}: {} entries at {} and {} marks at {} take {:.9g} s, more than {:g} times the thread's lifetime "
        "{}",
        where, static_cast<std::uint64_t>(entries), seconds(c.entry_ns), static_cast<std::uint64_t>(marks),
        seconds(c.mark_ns), static_cast<double>(all) * 1e-9, kProbeEstimateFactor, seconds(lifetime));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> find_impossible_value(const format::Profile& profile) {
  std::unordered_map<std::uint32_t, std::string> site_names;
  for (const format::Site& site : profile.sites) site_names.emplace(site.id, site.name);
  for (const Thread& t : profile.threads)
    if (auto problem = ThreadChecker(t, site_names).check()) return problem;
  for (const format::ProbeCostsRecord& c : profile.probe_costs)
    if (auto problem = probe_costs(c, profile)) return problem;
  return std::nullopt;
}

}  // namespace parperf::analysis
