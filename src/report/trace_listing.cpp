#include "report/trace_listing.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

#include <fmt/format.h>

#include "report/interval_selection.hpp"
#include "report/printable_text.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using Out = std::back_insert_iterator<std::string>;

// One row per site kind: the listing's words, another name users know it by (the runtime's own
// name of the site, say), and the key of the enum.
struct KindWords {
  SiteKind kind;
  std::string_view words;
  std::string_view alias;
  std::string_view key;
};

constexpr KindWords kKinds[] = {
    {SiteKind::program, "program", "", "program"},
    {SiteKind::user, "user interval", "", "user"},
    {SiteKind::parallel_loop, "parallel loop", "", "parallel_loop"},
    {SiteKind::sequential_loop, "sequential loop", "", "sequential_loop"},
    {SiteKind::omp_parallel, "parallel region", "parallel", "omp_parallel"},
    {SiteKind::omp_loop, "loop", "", "omp_loop"},
    {SiteKind::omp_sections, "sections", "", "omp_sections"},
    {SiteKind::omp_single, "single", "", "omp_single"},
    {SiteKind::omp_workshare, "workshare", "", "omp_workshare"},
    {SiteKind::omp_distribute, "distribute", "", "omp_distribute"},
    {SiteKind::omp_taskloop, "taskloop", "", "omp_taskloop"},
    {SiteKind::omp_masked, "masked", "master", "omp_masked"},
    {SiteKind::omp_task, "task", "", "omp_task"},
    {SiteKind::omp_scope, "scope", "", "omp_scope"},
    {SiteKind::omp_barrier, "barrier", "", "omp_barrier"},
    {SiteKind::omp_implicit_barrier, "implicit barrier", "", "omp_implicit_barrier"},
    {SiteKind::omp_join_barrier, "join barrier", "implicit barrier", "omp_join_barrier"},
    {SiteKind::omp_implementation_barrier, "runtime barrier", "barrier (runtime)",
     "omp_implementation_barrier"},
    {SiteKind::omp_taskwait, "taskwait", "", "omp_taskwait"},
    {SiteKind::omp_taskgroup, "taskgroup", "", "omp_taskgroup"},
    {SiteKind::omp_reduction, "reduction", "", "omp_reduction"},
    {SiteKind::omp_critical, "critical", "", "omp_critical"},
    {SiteKind::omp_lock, "lock", "", "omp_lock"},
    {SiteKind::omp_nest_lock, "nested lock", "nest lock", "omp_nest_lock"},
    {SiteKind::omp_ordered, "ordered", "", "omp_ordered"},
    {SiteKind::omp_atomic, "atomic", "", "omp_atomic"},
    {SiteKind::omp_flush, "flush", "", "omp_flush"},
    {SiteKind::omp_task_create, "task creation", "", "omp_task_create"},
    {SiteKind::omp_lock_init, "lock init", "", "omp_lock_init"},
    {SiteKind::omp_lock_destroy, "lock destroy", "", "omp_lock_destroy"},
    {SiteKind::mpi_send, "MPI send", "", "mpi_send"},
    {SiteKind::mpi_recv, "MPI receive", "", "mpi_recv"},
    {SiteKind::mpi_sendrecv, "MPI send-receive", "", "mpi_sendrecv"},
    {SiteKind::mpi_isend, "MPI non-blocking send", "", "mpi_isend"},
    {SiteKind::mpi_irecv, "MPI non-blocking receive", "", "mpi_irecv"},
    {SiteKind::mpi_start, "MPI start", "", "mpi_start"},
    {SiteKind::mpi_wait, "MPI wait", "", "mpi_wait"},
    {SiteKind::mpi_test, "MPI test", "", "mpi_test"},
    {SiteKind::mpi_probe, "MPI probe", "", "mpi_probe"},
    {SiteKind::mpi_barrier, "MPI barrier", "", "mpi_barrier"},
    {SiteKind::mpi_broadcast, "MPI broadcast", "", "mpi_broadcast"},
    {SiteKind::mpi_reduction, "MPI reduction", "", "mpi_reduction"},
    {SiteKind::mpi_all_to_all, "MPI all-to-all", "", "mpi_all_to_all"},
    {SiteKind::mpi_gather_scatter, "MPI gather-scatter", "", "mpi_gather_scatter"},
    {SiteKind::mpi_one_sided, "MPI one-sided", "", "mpi_one_sided"},
    {SiteKind::mpi_one_sided_sync, "MPI one-sided sync", "", "mpi_one_sided_sync"},
    {SiteKind::mpi_io, "MPI I/O", "", "mpi_io"},
    {SiteKind::mpi_management, "MPI management", "", "mpi_management"},
};

constexpr std::string_view kUserEventWords = "user event";
constexpr std::string_view kUserEventKey = "user_event";

const KindWords* kind_row(std::uint32_t kind) {
  for (const KindWords& row : kKinds)
    if (static_cast<std::uint32_t>(row.kind) == kind) return &row;
  return nullptr;
}

bool is_kind(std::uint32_t kind, std::initializer_list<SiteKind> kinds) {
  return std::any_of(kinds.begin(), kinds.end(),
                     [&](SiteKind k) { return static_cast<std::uint32_t>(k) == kind; });
}

// Work-sharing loops count chunks handed out, not iterations (the runtime marks each dispatch).
bool counts_chunks(std::uint32_t kind) {
  return is_kind(kind, {SiteKind::omp_loop, SiteKind::omp_distribute, SiteKind::omp_taskloop});
}

// Kind words compare alike whatever their case and whether words are joined by ' ', '_' or '-'.
std::string normalized(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '_' || c == '-') c = ' ';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Does any pattern name this interval or event, by its name or one of its kind words? "none" names
// nothing, so `--events none` shows nothing.
bool matches_any(const std::vector<std::string>& patterns, std::string_view name,
                 std::initializer_list<std::string_view> kind_words) {
  for (const std::string& pattern : patterns) {
    if (pattern == "none") continue;
    if (glob_matches(pattern, name)) return true;
    const std::string kind_pattern = normalized(pattern);
    for (std::string_view words : kind_words) {
      if (!words.empty() && glob_matches(kind_pattern, normalized(words))) return true;
    }
  }
  return false;
}

bool shown_by(const std::vector<std::string>& show, const std::vector<std::string>& hide,
              std::string_view name, std::initializer_list<std::string_view> kind_words) {
  if (!show.empty() && !matches_any(show, name, kind_words)) return false;
  return !matches_any(hide, name, kind_words);
}

// Three significant digits, in seconds: 0.412 s, 0.0625 s, 12.3 s; to the nanosecond at most.
std::string seconds(double ns) {
  if (ns <= 0) return "0 s";
  const double s = ns * 1e-9;
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

bool thread_selected(const TraceFilter& filter, std::int64_t rank, std::uint32_t thread) {
  if (!filter.ranks.empty() &&
      std::find(filter.ranks.begin(), filter.ranks.end(), rank) == filter.ranks.end())
    return false;
  if (filter.threads.empty()) return true;
  return std::any_of(filter.threads.begin(), filter.threads.end(), [&](const ThreadSelector& s) {
    return s.thread == thread && (!s.rank || *s.rank == rank);
  });
}

// The listing of one process: its sites and events looked up by id, each site described once (a
// describer that symbolizes reads debug information).
class ProcessListing {
 public:
  ProcessListing(const format::Profile& profile, const TraceFilter& filter, const SiteDescriber& describe)
      : profile_(profile), filter_(filter), describe_(describe) {
    for (const format::Site& site : profile.sites) sites_.emplace(site.id, &site);
    for (const format::Event& event : profile.events) events_.emplace(event.id, &event);
  }

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
    const KindWords* row = kind_row(site_kind(node.site));
    const bool shown =
        shown_by(filter_.intervals, filter_.no_intervals, text.name,
                 {text.kind_name, row ? row->words : "", row ? row->alias : "", row ? row->key : ""});
    if (shown) node_line(out, node, text, depth);
    const int inner = shown ? depth + 1 : depth;
    for (std::uint32_t child : children[index]) render_node(out, thread, children, child, inner);
    for (const format::OperationStats& operation : node.operations) operation_line(out, operation, inner);
    for (const format::EventStats& event : node.events) event_line(out, event, inner);
  }

  void node_line(Out out, const format::Node& node, const SiteText& text, int depth) {
    const std::uint64_t entries = node.count + (node.open ? 1 : 0);
    fmt::format_to(out, "{:{}}{} {} begins", "", 2 * depth, entries, text.kind_name);
    if (!text.name.empty()) fmt::format_to(out, " '{}'", printable(text.name));
    if (node.value != 0) fmt::format_to(out, " value {}", node.value);
    source(out, text);
    if (entries > 0)
      timing(out, node.sum_ns + node.open_ns, node.count, node.sum_ns, node.min_ns, node.max_ns);
    if (node.iterations > 0) {
      const double mean = static_cast<double>(node.iteration_sum_ns) / static_cast<double>(node.iterations);
      fmt::format_to(out, "  {} {} (mean {}", counts_chunks(site_kind(node.site)) ? "chunks" : "iterations",
                     node.iterations, seconds(mean));
      if (node.iterations > 1)
        fmt::format_to(out, ", min {}, max {}", seconds(node.iteration_min_ns),
                       seconds(node.iteration_max_ns));
      *out++ = ')';
    }
    if (node.context) fmt::format_to(out, " [context]");
    if (node.open) fmt::format_to(out, " [open]");
    *out++ = '\n';
  }

  void operation_line(Out out, const format::OperationStats& operation, int depth) {
    const SiteText& text = site_text(operation.site);
    const std::uint32_t kind = site_kind(operation.site);
    const KindWords* row = kind_row(kind);
    if (!shown_by(filter_.events, filter_.no_events, text.name,
                  {text.kind_name, row ? row->words : "", row ? row->alias : "", row ? row->key : ""}))
      return;
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
    auto it = events_.find(stats.event);
    const std::string name =
        it != events_.end() ? it->second->name : fmt::format("<unknown event {}>", stats.event);
    if (!shown_by(filter_.events, filter_.no_events, name, {kUserEventWords, kUserEventKey})) return;
    fmt::format_to(out, "{:{}}{} {} '{}'  starts {}  ends {}  atomics {}", "", 2 * depth,
                   stats.starts + stats.atomics, kUserEventWords, printable(name), stats.starts, stats.ends,
                   stats.atomics);
    timing(out, stats.sum_ns, stats.ends, stats.sum_ns, stats.min_ns, stats.max_ns);
    if (!stats.first_description.empty())
      fmt::format_to(out, "  first: \"{}\"", printable(stats.first_description));
    *out++ = '\n';
  }

  std::uint32_t site_kind(std::uint32_t id) const {
    auto it = sites_.find(id);
    return it != sites_.end() ? it->second->kind : static_cast<std::uint32_t>(SiteKind::user);
  }

  const SiteText& site_text(std::uint32_t id) {
    auto cached = texts_.find(id);
    if (cached != texts_.end()) return cached->second;
    SiteText text;
    auto it = sites_.find(id);
    if (it == sites_.end()) {
      text.kind_name = "unknown site";
      text.name = fmt::format("<unknown site {}>", id);
    } else {
      const format::Site& site = *it->second;
      auto construct = sites_.find(site.parent);
      text = describe_(
          site, site.parent != format::kNoParent && construct != sites_.end() ? construct->second : nullptr);
    }
    return texts_.emplace(id, std::move(text)).first->second;
  }

  const format::Profile& profile_;
  const TraceFilter& filter_;
  const SiteDescriber& describe_;
  std::unordered_map<std::uint32_t, const format::Site*> sites_;
  std::unordered_map<std::uint32_t, const format::Event*> events_;
  std::unordered_map<std::uint32_t, SiteText> texts_;
};

std::string joined(const std::vector<std::string>& blocks) {
  std::string out;
  for (const std::string& block : blocks) {
    if (!out.empty()) out += '\n';
    out += block;
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

template <class Number>
bool parse_number(std::string_view text, Number& number) {
  text = trim(text);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return false;
  if constexpr (std::is_signed_v<Number>) return number >= 0;
  return true;
}

// The comma-separated items of `list`, blanks around them removed; at least one.
std::vector<std::string_view> items_of(std::string_view list) {
  std::vector<std::string_view> items;
  while (true) {
    const std::size_t comma = list.find(',');
    items.push_back(trim(list.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return items;
}

}  // namespace

std::string_view site_kind_words(std::uint32_t kind) {
  const KindWords* row = kind_row(kind);
  return row ? row->words : "unknown kind";
}

SiteText describe_site(const format::Site& site, const format::Site* construct) {
  SiteText text;
  const KindWords* row = kind_row(site.kind);
  text.kind_name = row ? std::string(row->words) : fmt::format("site of kind {}", site.kind);
  // A barrier that ends a construct is named after it; a join barrier always ends a parallel region.
  if (is_kind(site.kind, {SiteKind::omp_implicit_barrier, SiteKind::omp_join_barrier})) {
    if (construct)
      text.kind_name = fmt::format("implicit barrier of {}", site_kind_words(construct->kind));
    else if (is_kind(site.kind, {SiteKind::omp_join_barrier}))
      text.kind_name = "implicit barrier of parallel region";
  }
  // The collectors name an operation site after its kind: saying it twice adds nothing.
  const bool repeats_kind =
      row && (site.name == row->words || site.name == row->alias || site.name == text.kind_name);
  if (!(format::is_operation_kind(site.kind) && repeats_kind)) text.name = site.name;
  text.file = site.file;
  text.line1 = site.line;
  if (text.file.empty() && !site.module.empty()) {
    const std::size_t slash = site.module.rfind('/');
    const std::string module = slash == std::string::npos ? site.module : site.module.substr(slash + 1);
    text.file = fmt::format("{}+0x{:x}", module, site.address);
  }
  return text;
}

std::vector<ThreadSelector> parse_thread_list(std::string_view list) {
  std::vector<ThreadSelector> selectors;
  for (std::string_view item : items_of(list)) {
    ThreadSelector selector;
    const std::size_t colon = item.find(':');
    std::int64_t rank = 0;
    bool ok = true;
    if (colon != std::string_view::npos) {
      ok = parse_number(item.substr(0, colon), rank);
      selector.rank = rank;
    }
    ok = ok && parse_number(colon == std::string_view::npos ? item : item.substr(colon + 1), selector.thread);
    if (!ok)
      throw std::invalid_argument(fmt::format("--thread: '{}' is not a thread number or RANK:THREAD", item));
    selectors.push_back(selector);
  }
  return selectors;
}

std::vector<std::int64_t> parse_rank_list(std::string_view list) {
  std::vector<std::int64_t> ranks;
  for (std::string_view item : items_of(list)) {
    std::int64_t rank = 0;
    if (!parse_number(item, rank))
      throw std::invalid_argument(fmt::format("--rank: '{}' is not a rank number", item));
    ranks.push_back(rank);
  }
  return ranks;
}

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
