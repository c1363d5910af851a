#include "report/event_listing.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include "format/site_kinds.hpp"
#include "report/printable_text.hpp"
#include "report/process_sites.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using format::SiteKind;
using format::TraceEventKind;

constexpr std::array<std::string_view, 1> kIterationWords = {"iteration"};
constexpr std::array<std::string_view, 2> kUserEvent = {kUserEventWords, kUserEventKey};

// A duration given in ns, as reports write durations in sentences (time_format.hpp).
std::string duration(double ns) { return format_duration(ns * 1e-9); }

// " src=heat.c(52)", or nothing.
std::string source(const SiteText& text) {
  if (text.file.empty()) return "";
  if (text.line1 <= 0) return fmt::format("  src={}", printable(text.file));
  return fmt::format("  src={}({})", printable(text.file), text.line1);
}

bool sends(std::uint32_t kind) {
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_send) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_isend);
}
bool receives(std::uint32_t kind) {
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_recv) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_irecv);
}

struct OpenInterval {
  std::uint32_t site = 0;
  bool shown = false;
  double begin_ns = 0;
};

// One rank: its sites described once, its clock's tick length, and each thread's open intervals.
struct RankState {
  ProcessSites sites;
  double ns_per_tick = 1;
  std::map<std::uint32_t, std::vector<OpenInterval>> stacks;
};

class Listing {
 public:
  Listing(const analysis::TraceRun& traces, const EventListingOptions& options,
          const DescriberFor& describer_for, const std::function<void(std::string_view)>& emit)
      : options_(options), emit_(emit) {
    for (const analysis::RankTrace& rank : traces.ranks) {
      static const format::Profile kNoProfile{};
      const format::Profile& profile = rank.profile ? *rank.profile : kNoProfile;
      ranks_.emplace(
          rank.rank,
          std::make_unique<RankState>(RankState{
              ProcessSites(profile, describer_for(profile)), analysis::ns_per_tick(*rank.trace), {}}));
    }
  }

  void add(const analysis::TimelineEvent& e) {
    if (!thread_selected(options_.filter, e.rank, e.thread)) return;
    RankState& rank = *ranks_.at(e.rank);
    std::vector<OpenInterval>& stack = rank.stacks[e.thread];
    const bool in_window = (!options_.from_ns || e.time_ns >= *options_.from_ns) &&
                           (!options_.to_ns || e.time_ns <= *options_.to_ns);
    int depth = 0;
    for (const OpenInterval& open : stack) depth += open.shown ? 1 : 0;
    const format::TraceEvent& event = e.event;
    switch (event.kind) {
      case TraceEventKind::enter: {
        const SiteText& text = rank.sites.text(event.site);
        const bool shown = shown_by(options_.filter.intervals, options_.filter.no_intervals, text.name,
                                    ProcessSites::kind_words(text, rank.sites.kind(event.site)));
        stack.push_back({event.site, shown, e.time_ns});
        if (!shown || !in_window) return;
        std::string line = fmt::format("{}{}", text.kind_name, name_of(text));
        if (event.value != 0) line += fmt::format("  value {}", event.value);
        line += source(text);
        print(e, depth, line);
        return;
      }
      case TraceEventKind::leave: {
        // The innermost interval ends; a leave that matches no open interval (its entry lies
        // before a lost block) is shown as it is.
        OpenInterval open{event.site, true, e.time_ns};
        if (!stack.empty()) {
          open = stack.back();
          stack.pop_back();
          depth -= open.shown ? 1 : 0;
        }
        if (!open.shown || !in_window) return;
        const SiteText& text = rank.sites.text(event.site);
        print(e, depth,
              fmt::format("end {}{} after {}", text.kind_name, name_of(text),
                          duration(e.time_ns - open.begin_ns)));
        return;
      }
      case TraceEventKind::operation:
        if (in_window) operation(e, rank, depth);
        return;
      case TraceEventKind::iteration: {
        if (!in_window || !shown_by(options_.filter.events, options_.filter.no_events, "", kIterationWords))
          return;
        const SiteText& text = rank.sites.text(event.site);
        print(e, depth, fmt::format("iteration of {}{}", text.kind_name, name_of(text)));
        return;
      }
      case TraceEventKind::event_start:
      case TraceEventKind::event_end:
      case TraceEventKind::event_atomic:
        if (in_window) user_event(e, rank, depth);
        return;
      case TraceEventKind::recording_off:
        if (in_window) print(e, depth, "recording paused (the whole process)");
        return;
      case TraceEventKind::recording_on:
        if (in_window) print(e, depth, "recording resumed");
        return;
      case TraceEventKind::writer_wait:
        if (in_window)
          print(e, depth,
                fmt::format("waited {} for the trace writer to free a buffer",
                            duration(static_cast<double>(event.duration) * rank.ns_per_tick)));
        return;
      case TraceEventKind::task:
        if (in_window) print(e, depth, fmt::format("runs task {}", event.value));
        return;
    }
  }

  std::uint64_t shown() const { return shown_; }

 private:
  static std::string name_of(const SiteText& text) {
    return text.name.empty() ? "" : fmt::format(" '{}'", printable(text.name));
  }

  void operation(const analysis::TimelineEvent& e, RankState& rank, int depth) {
    const format::TraceEvent& event = e.event;
    const SiteText& text = rank.sites.text(event.site);
    const std::uint32_t kind = rank.sites.kind(event.site);
    if (!shown_by(options_.filter.events, options_.filter.no_events, text.name,
                  ProcessSites::kind_words(text, kind)))
      return;
    std::string line = fmt::format("{}{} {}", text.kind_name, name_of(text),
                                   duration(static_cast<double>(event.duration) * rank.ns_per_tick));
    if (event.wait)
      line += fmt::format("  waited {}", duration(static_cast<double>(event.wait) * rank.ns_per_tick));
    if (event.sync)
      line += fmt::format("  sync {}", duration(static_cast<double>(event.sync) * rank.ns_per_tick));
    if (event.partner >= 0)
      line += fmt::format("  {} rank {}",
                          sends(kind)      ? "to"
                          : receives(kind) ? "from"
                                           : "with",
                          event.partner);
    if (event.bytes) line += fmt::format("  {} B", event.bytes);
    const format::SiteKindInfo* row = format::site_kind_info(kind);
    const bool point_to_point = row && row->site_class == format::SiteClass::point_to_point;
    if (point_to_point && event.partner >= 0) line += fmt::format("  tag {}", event.match);
    if (format::is_mpi_instance(kind, text.name) && event.communicator)
      line += fmt::format("  instance {}", event.match);
    if (format::takes_window_lock(kind, text.name) && event.communicator)
      if (const std::string_view type = format::window_lock_type_name(event.match); !type.empty())
        line += fmt::format("  {}", type);
    if (format::is_window_group_member(kind, event.match) && event.communicator)
      line += "  (a further member of the call's group)";
    line += source(text);
    print(e, depth, line);
  }

  void user_event(const analysis::TimelineEvent& e, RankState& rank, int depth) {
    const format::TraceEvent& event = e.event;
    const std::string name = rank.sites.event_name(event.event);
    if (!shown_by(options_.filter.events, options_.filter.no_events, name, kUserEvent)) return;
    const std::string text = event.text.empty() ? "" : fmt::format(": \"{}\"", printable(event.text));
    switch (event.kind) {
      case TraceEventKind::event_start:
        print(e, depth, fmt::format("user event '{}' begins{}", printable(name), text));
        return;
      case TraceEventKind::event_end:
        print(e, depth, fmt::format("user event '{}' ends", printable(name)));
        return;
      default:
        print(e, depth, fmt::format("user event '{}'{}", printable(name), text));
        return;
    }
  }

  void print(const analysis::TimelineEvent& e, int depth, std::string_view what) {
    ++shown_;
    emit_(fmt::format("{:12.6f}  {}:{}  {:{}}{}\n", e.time_ns * 1e-9, e.rank, e.thread, "", 2 * depth, what));
  }

  const EventListingOptions& options_;
  const std::function<void(std::string_view)>& emit_;
  std::map<std::int64_t, std::unique_ptr<RankState>> ranks_;
  std::uint64_t shown_ = 0;
};

}  // namespace

std::uint64_t render_event_listing(const analysis::TraceRun& traces, const EventListingOptions& options,
                                   const DescriberFor& describer_for,
                                   const std::function<void(std::string_view)>& emit) {
  Listing listing(traces, options, describer_for, emit);
  emit(fmt::format("{:>12}  {}  {}\n", "time (s)", "rank:thread", "event (times on rank 0's clock)"));
  auto streams = analysis::all_thread_streams(traces);
  analysis::merge_timeline(streams, traces.clocks, [&](const analysis::TimelineEvent& e) { listing.add(e); });
  return listing.shown();
}

std::string describe_trace_limits(const analysis::TraceRun& traces, const analysis::RunData& run) {
  std::string out;
  for (const std::string& warning : traces.warnings) out += fmt::format("note: {}\n", printable(warning));
  if (run.run_info) {
    const auto& environment = run.run_info->environment;
    auto setting = [&](const char* name) -> std::string {
      auto it = environment.find(name);
      return it != environment.end() ? it->second : "";
    };
    if (const std::string filter = setting("PARPERF_TRACE_FILTER"); !filter.empty())
      out += fmt::format("note: only names that pass the trace filter '{}' were traced\n", printable(filter));
    if (const std::string depth = setting("PARPERF_TRACE_DEPTH"); !depth.empty())
      out += fmt::format("note: intervals nested deeper than {} were not traced\n", printable(depth));
  }
  return out;
}

double parse_time_ns(std::string_view option, std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view unit = text.substr(static_cast<std::size_t>(end - text.data()));
  double scale = 0;
  if (unit.empty() || unit == "s")
    scale = 1e9;
  else if (unit == "ms")
    scale = 1e6;
  else if (unit == "us" || unit == "µs")
    scale = 1e3;
  else if (unit == "ns")
    scale = 1;
  if (error != std::errc{} || scale == 0 || !std::isfinite(value))
    throw std::invalid_argument(
        fmt::format("{} {}: not a time (say 1.5, 1.5s, 200ms, 30us or 500ns)", option, printable(text)));
  return value * scale;
}

}  // namespace parperf::report
