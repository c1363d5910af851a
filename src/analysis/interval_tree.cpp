// Merging the per-thread interval trees of every process into one tree keyed by identity path.
#include "analysis/interval_tree.hpp"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

namespace parperf::analysis {
namespace {

// Site and event ids are numbers private to one process: resolve them through its own tables.
class ProcessTables {
 public:
  ProcessTables(const format::Profile& profile, const SiteTable& table) {
    for (const format::Site& site : profile.sites)
      sites_.emplace(site.id, ResolvedSite{&site, table.location(profile.process.rank, site)});
    for (const format::Event& event : profile.events) events_.emplace(event.id, &event);
  }

  IntervalIdentity identity(const format::Node& node) const {
    auto it = sites_.find(node.site);
    if (it == sites_.end()) return {1, fmt::format("<unknown site {}>", node.site), "", 0, node.value, 0, ""};
    const format::Site& site = *it->second.site;
    const SiteLocation& where = it->second.location;
    return {site.kind,  where.name_of(site), where.file,    where.line,
            node.value, where.end_line,      where.function};
  }

  OperationIdentity operation(std::uint32_t id) const {
    auto it = sites_.find(id);
    if (it == sites_.end()) return {0, fmt::format("<unknown site {}>", id), "", 0, "", 0};
    const format::Site& site = *it->second.site;
    const SiteLocation& where = it->second.location;
    std::uint32_t construct_kind = 0;
    if (auto parent = sites_.find(site.parent); site.parent != format::kNoParent && parent != sites_.end())
      construct_kind = parent->second.site->kind;
    return {site.kind, site.name, where.file, where.line, where.function, construct_kind};
  }

  const format::Event* event(std::uint32_t id) const {
    auto it = events_.find(id);
    return it == events_.end() ? nullptr : it->second;
  }

 private:
  struct ResolvedSite {
    const format::Site* site;
    SiteLocation location;
  };
  std::unordered_map<std::uint32_t, ResolvedSite> sites_;
  std::unordered_map<std::uint32_t, const format::Event*> events_;
};

void add_events(LocationStats& stats, const format::Node& node, const ProcessTables& tables) {
  for (const format::EventStats& e : node.events) {
    const format::Event* event = tables.event(e.event);
    std::string name = event ? event->name : fmt::format("<unknown event {}>", e.event);
    auto it = std::find_if(stats.events.begin(), stats.events.end(),
                           [&](const EventFigures& f) { return f.name == name; });
    if (it == stats.events.end()) {
      it = stats.events.insert(stats.events.end(), EventFigures{});
      it->name = std::move(name);
      if (event) it->description = event->description;
    }
    format::add_durations(*it, e);
    it->starts += e.starts;
    it->atomics += e.atomics;
    if (it->first_description.empty()) it->first_description = e.first_description;
  }
}

void add_partners(OperationFigures& figures, const format::OperationStats& o) {
  if (o.partner_min != format::kNoPartner)
    figures.partner_min = figures.partner_min == format::kNoPartner
                              ? o.partner_min
                              : std::min(figures.partner_min, o.partner_min);
  if (o.partner_max != format::kNoPartner) figures.partner_max = std::max(figures.partner_max, o.partner_max);
  figures.partner_set |= o.partner_set;
}

void add_operations(LocationStats& stats, const format::Node& node, const ProcessTables& tables) {
  for (const format::OperationStats& o : node.operations) {
    OperationIdentity identity = tables.operation(o.site);
    auto it = std::find_if(stats.operations.begin(), stats.operations.end(),
                           [&](const OperationFigures& f) { return f.identity == identity; });
    if (it == stats.operations.end()) {
      it = stats.operations.insert(stats.operations.end(), OperationFigures{});
      it->identity = std::move(identity);
    }
    format::add_durations(*it, o);
    it->wait_ns += o.wait_ns;
    it->wait_max_ns = std::max(it->wait_max_ns, o.wait_max_ns);
    it->sync_ns += o.sync_ns;
    it->sync_max_ns = std::max(it->sync_max_ns, o.sync_max_ns);
    it->bytes += o.bytes;
    it->overlap_ns += o.overlap_ns;
    add_partners(*it, o);
    // Should a location hold the site in two nodes of one interval, the later call is the last.
    if (o.count > 0 && o.last_end_ns >= it->last_end_ns) {
      it->last_begin_ns = o.last_begin_ns;
      it->last_end_ns = o.last_end_ns;
    }
  }
}

// Adds one node of one location. A location normally has one node per interval; should a writer
// ever emit two, their figures add up.
void add_node(LocationStats& stats, const format::Node& node, std::uint64_t os_user_ns,
              std::uint64_t os_sys_ns, const ProcessTables& tables) {
  std::uint64_t node_entries = node.count + (node.open() ? 1 : 0);
  if (node_entries > 0) {
    std::uint64_t node_min = node.count > 0 ? node.min_ns : node.open_ns;
    std::uint64_t node_max = node.count > 0 ? node.max_ns : node.open_ns;
    if (node.open() && node.count > 0) {
      node_min = std::min(node_min, node.open_ns);
      node_max = std::max(node_max, node.open_ns);
    }
    // Not add_durations: an open entry is one of the entries here, though not of `count`.
    const bool first = stats.entries() == 0;
    stats.min_ns = first ? node_min : std::min(stats.min_ns, node_min);
    stats.max_ns = first ? node_max : std::max(stats.max_ns, node_max);
  }
  stats.context = stats.entries() == 0 && node.context();
  stats.count += node.count;
  stats.open = stats.open || node.open();
  stats.sum_ns += node.sum_ns;
  stats.open_ns += node.open_ns;
  stats.os_user_ns += os_user_ns;
  stats.os_sys_ns += os_sys_ns;
  format::add_durations(stats.iterations, node.iterations);
  if (node.iteration_histogram) {
    if (!stats.iteration_histogram) stats.iteration_histogram.emplace();
    stats.iteration_histogram->add(*node.iteration_histogram);
  } else {
    stats.iterations_without_histogram += node.iterations.count;
  }
  add_events(stats, node, tables);
  add_operations(stats, node, tables);
}

class TreeBuilder {
 public:
  explicit TreeBuilder(const SiteTable& sites) : sites_(sites) { children_by_identity_.emplace_back(); }

  void add_profile(const format::Profile& profile) {
    ProcessTables tables(profile, sites_);
    std::int64_t rank = profile.process.rank;
    auto thread_count = static_cast<std::uint32_t>(profile.threads.size());
    tree_.threads_per_rank[rank] = std::max(profile.process.thread_count, thread_count);
    // Children are listed in the order intervals are first met, so walk the threads in the order
    // they registered (the main thread first), whatever order the file holds them in.
    std::vector<const format::Thread*> threads;
    for (const format::Thread& thread : profile.threads) threads.push_back(&thread);
    std::sort(threads.begin(), threads.end(),
              [](const format::Thread* a, const format::Thread* b) { return a->index < b->index; });
    for (const format::Thread* thread : threads) {
      Location location{rank, thread->index};
      tree_.locations.push_back(location);
      tree_.thread_facts[location] = ThreadFacts{thread->kind, thread->parked_ns};
      add_thread(*thread, location, tables);
    }
  }

  IntervalTree finish() {
    if (tree_.intervals.empty()) ensure_root({0, "program", "", 0, 0, 0, ""});  // no thread recorded anything
    std::sort(tree_.locations.begin(), tree_.locations.end());
    for (MergedInterval& interval : tree_.intervals) {
      std::sort(interval.locations.begin(), interval.locations.end(),
                [](const LocationStats& a, const LocationStats& b) { return a.location < b.location; });
    }
    return std::move(tree_);
  }

 private:
  void add_thread(const format::Thread& thread, Location location, const ProcessTables& tables) {
    const std::vector<format::Node>& nodes = thread.nodes;
    if (nodes.empty()) return;
    // Pre-order puts every parent before its children, so one backward pass makes the OS CPU
    // times inclusive. A parent index that does not precede its node is treated as the root.
    auto parent_of = [&](std::size_t i) -> std::size_t {
      std::uint32_t parent = nodes[i].parent;
      return parent < i ? parent : 0;
    };
    std::vector<std::uint64_t> os_user(nodes.size()), os_sys(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      os_user[i] = nodes[i].os_user_self_ns;
      os_sys[i] = nodes[i].os_sys_self_ns;
    }
    for (std::size_t i = nodes.size(); i-- > 1;) {
      os_user[parent_of(i)] += os_user[i];
      os_sys[parent_of(i)] += os_sys[i];
    }
    std::vector<std::size_t>& merged = tree_.node_intervals[location];
    merged.assign(nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (i == 0) {
        ensure_root(tables.identity(nodes[0]));
      } else {
        merged[i] = child(merged[parent_of(i)], tables.identity(nodes[i]));
      }
      std::vector<LocationStats>& stats = tree_.intervals[merged[i]].locations;
      // All nodes of one thread arrive together, so an existing entry for it is the last one.
      if (stats.empty() || stats.back().location != location) stats.emplace_back().location = location;
      add_node(stats.back(), nodes[i], os_user[i], os_sys[i], tables);
    }
  }

  // The root is the program on every location, whatever each process called it.
  void ensure_root(IntervalIdentity identity) {
    if (!tree_.intervals.empty()) return;
    tree_.intervals.push_back(MergedInterval{std::move(identity), 0, 0, {}, {}});
  }

  std::size_t child(std::size_t parent, IntervalIdentity identity) {
    auto [it, inserted] = children_by_identity_[parent].try_emplace(identity, tree_.intervals.size());
    std::size_t index = it->second;  // before the vector of maps below may reallocate
    if (inserted) {
      std::uint32_t level = tree_.intervals[parent].level + 1;
      tree_.intervals.push_back(MergedInterval{std::move(identity), level, parent, {}, {}});
      tree_.intervals[parent].children.push_back(index);
      children_by_identity_.emplace_back();
    }
    return index;
  }

  const SiteTable& sites_;
  IntervalTree tree_;
  std::vector<std::map<IntervalIdentity, std::size_t>> children_by_identity_;
};

}  // namespace

OperationIdentity operation_identity(const format::Profile& profile, std::uint32_t site,
                                     const SiteTable& sites) {
  return ProcessTables(profile, sites).operation(site);
}

IntervalTree build_interval_tree(const std::vector<format::Profile>& profiles, const SiteTable& sites) {
  TreeBuilder builder(sites);
  for (const format::Profile& profile : profiles) builder.add_profile(profile);
  return builder.finish();
}

}  // namespace parperf::analysis
