#include "report/trace_listing.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <unordered_map>

#include <fmt/format.h>

#include "format/site_kinds.hpp"
#include "report/printable_text.hpp"
#include "report/process_sites.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using Out = std::back_insert_iterator<std::string>;

bool is_kind(std::uint32_t kind, std::initializer_list<SiteKind> kinds) {
  return std::any_of(kinds.begin(), kinds.end(),
                     [&](SiteKind k) { return static_cast<std::uint32_t>(k) == kind; });
}

// Work-sharing loops count chunks handed out, not iterations (the runtime marks each dispatch).
bool counts_chunks(std::uint32_t kind) {
  return is_kind(kind, {SiteKind::omp_loop, SiteKind::omp_distribute, SiteKind::omp_taskloop});
}

// Three significant digits, in seconds: 0.412 s, 0.0625 s, 12.3 s; to the nanosecond at most.
std::string seconds(double ns) {
  if (ns <= 0) return "0 s";
  const double s = ns * 1e-9;
  if (!std::isfinite(s)) return fmt::format("{} s", s);  // "nan s", "inf s": no magnitude to cast
  const int magnitude = static_cast<int>(std::floor(std::log10(s)));
  return fmt::format("{:.{}f} s", s, std::clamp(2 - magnitude, 0, 9));
}
std::string seconds(std::uint64_t ns) { return seconds(static_cast<double>(ns)); }

// "  total 0.250 s  min 0.061 s  max 0.064 s  mean 0.0625 s"; the spread only for several entries.
void timing(Out out, std::uint64_t total_ns, std::uint64_t count, std::uint64_t sum_ns, std::uint64_t min_ns,
            std::uint64_t max_ns) {
  fmt::format_to(out, "  total {}", seconds(total_ns));
  if (count > 1) {
    fmt::format_to(out, "  min {}  max {}  mean {}", seconds(min_ns), seconds(max_ns),
                   seconds(static_cast<double>(sum_ns) / static_cast<double>(count)));
  }
}

// " src=heat.c(57:63)", " src=heat.c(70)", " src=heat+0x1a2b", or nothing.
void source(Out out, const SiteText& text) {
  if (text.file.empty()) return;
  fmt::format_to(out, " src={}", printable(text.file));
  if (text.line1 <= 0) return;
  if (text.line2 > 0 && text.line2 != text.line1)
    fmt::format_to(out, "({}:{})", text.line1, text.line2);
  else
    fmt::format_to(out, "({})", text.line1);
}

std::string_view thread_kind_words(format::ThreadKind kind) {
  switch (kind) {
    case format::ThreadKind::initial:
      return "initial thread";
    case format::ThreadKind::openmp_worker:
      return "OpenMP worker";
    case format::ThreadKind::other:
      break;
  }
  return "thread";
}

// The listing of one process: its sites and events looked up by id, each site described once (a
// describer that symbolizes reads debug information).
class ProcessListing {
 public:
  ProcessListing(const format::Profile& profile, const TraceFilter& filter, const SiteDescriber& describe)
      : profile_(profile), filter_(filter), sites_(profile, describe) {}

  // In the order the threads registered, whatever the order the runtime wrote them in.
  void render(std::vector<std::string>& blocks) {
    std::vector<const format::Thread*> threads;
    for (const format::Thread& thread : profile_.threads)
      if (thread_selected(filter_, profile_.process.rank, thread.index)) threads.push_back(&thread);
    std::stable_sort(threads.begin(), threads.end(),
                     [](const format::Thread* a, const format::Thread* b) { return a->index < b->index; });
    for (const format::Thread* thread : threads) {
      std::string block;
      render_thread(std::back_inserter(block), *thread);
      blocks.push_back(std::move(block));
    }
  }

 private:
  void render_thread(Out out, const format::Thread& thread) {
    const std::uint64_t lifetime = thread.end_ns > thread.start_ns ? thread.end_ns - thread.start_ns : 0;
    fmt::format_to(out, "== rank {} thread {} ({})  lifetime {}", profile_.process.rank, thread.index,
                   thread_kind_words(thread.kind), seconds(lifetime));
    if (thread.parked_ns > 0) fmt::format_to(out, "  parked {}", seconds(thread.parked_ns));
    *out++ = '\n';

    // The reader guarantees pre-order (every parent before its children); a hand-built profile
    // that breaks it gets its stray nodes listed as roots rather than lost.
    std::vector<std::vector<std::uint32_t>> children(thread.nodes.size());
    std::vector<std::uint32_t> roots;
    for (std::uint32_t i = 0; i < thread.nodes.size(); ++i) {
      const std::uint32_t parent = thread.nodes[i].parent;
      if (parent < i)
        children[parent].push_back(i);
      else
        roots.push_back(i);
    }
    for (std::uint32_t root : roots) render_node(out, thread, children, root, 0);
  }

  // A node's line, then its children, then its operations and user events one level deeper. A
  // hidden node leaves its line out and everything below it one level higher.
  void render_node(Out out, const format::Thread& thread,
                   const std::vector<std::vector<std::uint32_t>>& children, std::uint32_t index, int depth) {
    const format::Node& node = thread.nodes[index];
    const SiteText& text = site_text(node.site);
    const bool shown =
        shown_by(filter_.intervals, filter_.no_intervals, text.name, kind_words(text, site_kind(node.site)));
    if (shown) node_line(out, node, text, depth);
    const int inner = shown ? depth + 1 : depth;
    for (std::uint32_t child : children[index]) render_node(out, thread, children, child, inner);
    for (const format::OperationStats& operation : node.operations) operation_line(out, operation, inner);
    for (const format::EventStats& event : node.events) event_line(out, event, inner);
  }

  void node_line(Out out, const format::Node& node, const SiteText& text, int depth) {
    const std::uint64_t entries = node.count + (node.open() ? 1 : 0);
    fmt::format_to(out, "{:{}}{} {} begins", "", 2 * depth, entries, text.kind_name);
    if (!text.name.empty()) fmt::format_to(out, " '{}'", printable(text.name));
    if (node.value != 0) fmt::format_to(out, " value {}", node.value);
    source(out, text);
    if (entries > 0)
      timing(out, node.sum_ns + node.open_ns, node.count, node.sum_ns, node.min_ns, node.max_ns);
    if (node.iterations.count > 0) {
      const double mean =
          static_cast<double>(node.iterations.sum_ns) / static_cast<double>(node.iterations.count);
      fmt::format_to(out, "  {} {} (mean {}", counts_chunks(site_kind(node.site)) ? "chunks" : "iterations",
                     node.iterations.count, seconds(mean));
      if (node.iterations.count > 1)
        fmt::format_to(out, ", min {}, max {}", seconds(node.iterations.min_ns),
                       seconds(node.iterations.max_ns));
      *out++ = ')';
    }
    if (node.context()) fmt::format_to(out, " [context]");
    if (node.open()) fmt::format_to(out, " [open]");
    *out++ = '\n';
  }

  void operation_line(Out out, const format::OperationStats& operation, int depth) {
    const SiteText& text = site_text(operation.site);
    const std::uint32_t kind = site_kind(operation.site);
    if (!shown_by(filter_.events, filter_.no_events, text.name, kind_words(text, kind))) return;
    fmt::format_to(out, "{:{}}{} {}", "", 2 * depth, operation.count, text.kind_name);
    if (!text.name.empty()) fmt::format_to(out, " '{}'", printable(text.name));
    source(out, text);
    timing(out, operation.sum_ns, operation.count, operation.sum_ns, operation.min_ns, operation.max_ns);
    fmt::format_to(out, "  wait {}", seconds(operation.wait_ns));
    if (operation.wait_ns > 0) fmt::format_to(out, " (max {})", seconds(operation.wait_max_ns));
    if (operation.sync_ns > 0 ||
        is_kind(kind, {SiteKind::omp_implicit_barrier, SiteKind::omp_join_barrier})) {
      fmt::format_to(out, "  sync {}", seconds(operation.sync_ns));
      if (operation.sync_ns > 0) fmt::format_to(out, " (max {})", seconds(operation.sync_max_ns));
    }
    if (operation.bytes > 0) fmt::format_to(out, "  bytes {}", operation.bytes);
    if (operation.overlap_ns > 0) fmt::format_to(out, "  overlap {}", seconds(operation.overlap_ns));
    if (operation.partner_min >= 0 && operation.partner_max >= operation.partner_min) {
      if (operation.partner_min == operation.partner_max)
        fmt::format_to(out, "  partner {}", operation.partner_min);
      else
        fmt::format_to(out, "  partners {}-{}", operation.partner_min, operation.partner_max);
    }
    *out++ = '\n';
  }

  void event_line(Out out, const format::EventStats& stats, int depth) {
    const std::string name = sites_.event_name(stats.event);
    if (!shown_by(filter_.events, filter_.no_events, name, std::array{kUserEventWords, kUserEventKey}))
      return;
    fmt::format_to(out, "{:{}}{} {} '{}'  starts {}  ends {}  atomics {}", "", 2 * depth,
                   stats.starts + stats.atomics, kUserEventWords, printable(name), stats.starts, stats.count,
                   stats.atomics);
    timing(out, stats.sum_ns, stats.count, stats.sum_ns, stats.min_ns, stats.max_ns);
    if (!stats.first_description.empty())
      fmt::format_to(out, "  first: \"{}\"", printable(stats.first_description));
    *out++ = '\n';
  }

  const SiteText& site_text(std::uint32_t id) { return sites_.text(id); }
  std::uint32_t site_kind(std::uint32_t id) const { return sites_.kind(id); }
  static std::array<std::string_view, 5> kind_words(const SiteText& text, std::uint32_t kind) {
    return ProcessSites::kind_words(text, kind);
  }

  const format::Profile& profile_;
  const TraceFilter& filter_;
  ProcessSites sites_;
};

std::string joined(const std::vector<std::string>& blocks) {
  std::string out;
  for (const std::string& block : blocks) {
    if (!out.empty()) out += '\n';
    out += block;
  }
  return out;
}

}  // namespace

std::string render_trace_listing(const format::Profile& profile, const TraceFilter& filter,
                                 const SiteDescriber& describe) {
  std::vector<std::string> blocks;
  ProcessListing(profile, filter, describe).render(blocks);
  return joined(blocks);
}

std::string render_trace_listing(const std::vector<format::Profile>& profiles, const TraceFilter& filter,
                                 const SiteDescriber& describe) {
  std::vector<std::string> blocks;
  for (const format::Profile& profile : profiles) ProcessListing(profile, filter, describe).render(blocks);
  return joined(blocks);
}

}  // namespace parperf::report
