#include "export/timeline_slices.hpp"

#include "analysis/trace/clock_repair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "format/site_kinds.hpp"

namespace parperf::exports {

std::string_view category_name(ItemCategory category) {
  switch (category) {
    case ItemCategory::interval:
      return "interval";
    case ItemCategory::operation:
      return "operation";
    case ItemCategory::user_event:
      return "user event";
    case ItemCategory::iteration:
      return "iteration";
    case ItemCategory::recording:
      return "recording";
    case ItemCategory::tracer:
      return "tracer";
    case ItemCategory::message:
      return "message";
  }
  return "other";
}

namespace {

constexpr std::string_view kWriterWait = "trace writer wait";
constexpr std::string_view kLostTime = "lost time";

std::int64_t as_signed(std::uint64_t v) {
  return static_cast<std::int64_t>(std::min<std::uint64_t>(v, std::numeric_limits<std::int64_t>::max()));
}

// Ticks of a rank's clock as whole ns.
std::int64_t ns_of(std::uint64_t ticks, double ns_per_tick) {
  return std::llround(std::min(static_cast<double>(ticks) * ns_per_tick, 9e18));
}

bool is_point_to_point(std::uint32_t kind) {
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  return info && info->site_class == format::SiteClass::point_to_point;
}

}  // namespace

void for_each_argument(const TimelineItem& item, const std::function<void(const Argument&)>& f) {
  if (item.kind != ItemKind::slice_begin && item.kind != ItemKind::instant) return;
  auto number = [&](std::string_view name, std::int64_t v) { f(Argument{name, false, v, {}}); };
  auto text = [&](std::string_view name, std::string_view v) { f(Argument{name, true, 0, v}); };
  const format::TraceEvent* e = item.event;
  const auto ns = [&](std::uint64_t ticks) { return ns_of(ticks, item.ns_per_tick); };
  if (e) switch (item.category) {
      case ItemCategory::operation: {
        const std::uint32_t kind = item.site ? item.site->kind : 0;
        if (e->bytes || format::is_mpi_kind(kind)) number("bytes", as_signed(e->bytes));
        if (e->partner >= 0) number(format::is_mpi_collective_kind(kind) ? "root" : "partner", e->partner);
        if (e->communicator) number("communicator", e->communicator - 1);
        if (is_point_to_point(kind)) number("tag", e->match);
        if (format::is_mpi_collective_kind(kind) ||
            (item.site && format::is_mpi_instance(kind, item.site->name) && e->communicator))
          number("sequence", e->match);
        if (item.site && format::takes_window_lock(kind, item.site->name) && e->communicator)
          if (const std::string_view type = format::window_lock_type_name(e->match); !type.empty())
            text("lock", type);
        number("duration_ns", ns(e->duration));
        if (e->wait) number("wait_ns", ns(e->wait));
        if (e->sync) number("sync_ns", ns(e->sync));
        break;
      }
      case ItemCategory::interval:
        if (e->value) number("value", e->value);
        break;
      case ItemCategory::user_event:
        if (!e->text.empty()) text("text", e->text);
        break;
      case ItemCategory::tracer:
        number("duration_ns", ns(e->duration));
        break;
      default:
        break;
    }
  if (item.site && !item.site->source.empty()) text("source", item.site->source);
}

SliceBuilder::SliceBuilder(const TimelineNames& names, const analysis::ClockCorrection& clocks,
                           const std::vector<Flow>& flows, std::function<void(const TimelineItem&)> out,
                           const analysis::ClockRepair* repair)
    : names_(names), clocks_(clocks), repair_(repair), flows_(flows), out_(std::move(out)) {
  for (std::size_t i = 0; i < flows_.size(); ++i) flow_starts_.push_back(i), flow_ends_.push_back(i);
  std::stable_sort(flow_starts_.begin(), flow_starts_.end(), [&](std::size_t a, std::size_t b) {
    return flows_[a].from.time_ns < flows_[b].from.time_ns;
  });
  std::stable_sort(flow_ends_.begin(), flow_ends_.end(),
                   [&](std::size_t a, std::size_t b) { return flows_[a].to.time_ns < flows_[b].to.time_ns; });
}

SliceBuilder::ThreadState& SliceBuilder::state(std::int64_t rank, std::uint32_t thread) {
  const auto [it, added] = threads_.try_emplace((static_cast<std::uint64_t>(rank) << 32) | thread);
  if (added) {
    if (const RankInfo* traced = names_.find_rank(rank)) it->second.ns_per_tick = traced->ns_per_tick;
    // Its operations' ends come in the order of their starts: walked along its anchors.
    if (repair_)
      if (const auto* anchors = repair_->anchors_of(rank, thread)) it->second.repaired.emplace(*anchors);
  }
  return it->second;
}

void SliceBuilder::emit(TimelineItem item) {
  item.ns_per_tick = state(item.rank, item.thread).ns_per_tick;
  // Never back: a stream whose corrected times go back is merged as it comes (timeline_merge.hpp),
  // and the writers' formats want times in order.
  item.timestamp = std::max(
      last_timestamp_, static_cast<std::uint64_t>(std::llround(std::max(0.0, item.time_ns - origin_ns_))));
  last_timestamp_ = item.timestamp;
  out_(item);
}

void SliceBuilder::begin_slice(const analysis::TimelineEvent& e, ItemCategory category, const SiteInfo* site,
                               std::uint32_t lane, std::string_view name, const format::TraceEvent* event) {
  emit(TimelineItem{.kind = ItemKind::slice_begin,
                    .category = category,
                    .rank = e.rank,
                    .thread = e.thread,
                    .lane = lane,
                    .time_ns = e.time_ns,
                    .name = name,
                    .site = site,
                    .event = event});
}

void SliceBuilder::end_operation(ThreadState& s, std::int64_t rank, std::uint32_t thread, double time) {
  s.operation_running = false;
  const bool is_operation = s.operation.kind == format::TraceEventKind::operation;
  emit(TimelineItem{.kind = ItemKind::slice_end,
                    .category = is_operation ? ItemCategory::operation : ItemCategory::tracer,
                    .rank = rank,
                    .thread = thread,
                    .time_ns = time,
                    .name = is_operation ? std::string_view(s.operation_site->name) : kWriterWait,
                    .site = s.operation_site,
                    .event = &s.operation});
  const std::uint64_t lost = is_operation ? s.operation.wait + s.operation.sync : 0;
  if (lost == 0) return;
  double& total = lost_ns_[rank];
  total += static_cast<double>(lost) * s.ns_per_tick;
  emit(TimelineItem{.kind = ItemKind::counter,
                    .category = ItemCategory::operation,
                    .rank = rank,
                    .thread = thread,
                    .time_ns = time,
                    .name = kLostTime,
                    .value = total});
}

void SliceBuilder::release_until(double time, bool inclusive) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  auto due = [&](double t) { return inclusive ? t <= time : t < time; };
  for (;;) {
    const double start =
        next_start_ < flows_.size() ? flows_[flow_starts_[next_start_]].from.time_ns : kNever;
    const double end = next_end_ < flows_.size() ? flows_[flow_ends_[next_end_]].to.time_ns : kNever;
    const double operation = operation_ends_.empty() ? kNever : operation_ends_.top().time;
    const double flow = std::min(start, end);
    const bool flows_left = next_start_ < flows_.size() || next_end_ < flows_.size();
    // At equal times a flow's end comes before an operation's end: it belongs inside the slice.
    if (flows_left && due(flow) && flow <= operation) {
      const bool is_start = start <= end;
      const std::size_t index = is_start ? flow_starts_[next_start_++] : flow_ends_[next_end_++];
      const Flow& f = flows_[index];
      const FlowEndpoint& at = is_start ? f.from : f.to;
      emit(TimelineItem{.kind = is_start ? ItemKind::flow_start : ItemKind::flow_end,
                        .category = ItemCategory::message,
                        .rank = at.rank,
                        .thread = at.thread,
                        .time_ns = at.time_ns,
                        .name = f.name,
                        .flow = index + 1});
      continue;
    }
    if (operation_ends_.empty() || !due(operation)) return;
    const Pending p = operation_ends_.top();
    operation_ends_.pop();
    ThreadState& s = state(p.rank, p.thread);
    if (s.operation_running && s.operation_generation == p.generation)
      end_operation(s, p.rank, p.thread, p.time);
  }
}

void SliceBuilder::add(const analysis::TimelineEvent& e) {
  if (!started_) {
    started_ = true;
    origin_ns_ = origin_for(e.time_ns);
    last_ns_ = e.time_ns;
  }
  release_until(e.time_ns, false);
  last_ns_ = std::max(last_ns_, e.time_ns);
  ThreadState& s = state(e.rank, e.thread);
  // A thread does one thing at a time: its next event ends the operation it was in.
  if (s.operation_running) end_operation(s, e.rank, e.thread, std::min(s.operation_end, e.time_ns));

  using format::TraceEventKind;
  auto instant = [&](ItemCategory category, std::string_view name, const SiteInfo* site) {
    emit(TimelineItem{.kind = ItemKind::instant,
                      .category = category,
                      .rank = e.rank,
                      .thread = e.thread,
                      .time_ns = e.time_ns,
                      .name = name,
                      .site = site,
                      .event = &e.event});
  };
  switch (e.event.kind) {
    case TraceEventKind::enter: {
      const SiteInfo& site = names_.site(e.rank, e.event.site);
      s.intervals.push_back(OpenInterval{&site, e.event});
      begin_slice(e, ItemCategory::interval, &site, 0, site.name, &s.intervals.back().event);
      break;
    }
    case TraceEventKind::leave: {
      if (s.intervals.empty()) break;  // entered while recording was off
      const OpenInterval& open = s.intervals.back();
      emit(TimelineItem{.kind = ItemKind::slice_end,
                        .category = ItemCategory::interval,
                        .rank = e.rank,
                        .thread = e.thread,
                        .time_ns = e.time_ns,
                        .name = open.site->name,
                        .site = open.site,
                        .event = &open.event});
      s.intervals.pop_back();
      break;
    }
    case TraceEventKind::operation:
    case TraceEventKind::writer_wait: {
      const bool is_operation = e.event.kind == TraceEventKind::operation;
      // A further member of an MPI_Win_post's or _start's group names a partner of that call: no
      // slice of its own (the timelines show each call once).
      if (is_operation &&
          format::is_window_group_member(names_.site(e.rank, e.event.site).kind, e.event.match))
        break;
      s.operation = e.event;
      s.operation_site = is_operation ? &names_.site(e.rank, e.event.site) : nullptr;
      s.operation_running = true;
      ++s.operation_generation;
      double end = clocks_.apply(e.rank, e.local_ns + static_cast<double>(e.event.duration) * s.ns_per_tick);
      if (s.repaired) end = (*s.repaired)(end);
      s.operation_end = std::max(e.time_ns, end);
      begin_slice(e, is_operation ? ItemCategory::operation : ItemCategory::tracer, s.operation_site, 0,
                  is_operation ? std::string_view(s.operation_site->name) : kWriterWait, &s.operation);
      operation_ends_.push(Pending{s.operation_end, order_++, e.rank, e.thread, s.operation_generation});
      break;
    }
    case TraceEventKind::event_start: {
      std::vector<format::TraceEvent>& open = s.user_events[e.event.event];
      open.push_back(e.event);
      begin_slice(e, ItemCategory::user_event, nullptr, e.event.event + 1,
                  names_.event(e.rank, e.event.event), &open.back());
      break;
    }
    case TraceEventKind::event_end: {
      std::vector<format::TraceEvent>& open = s.user_events[e.event.event];
      if (open.empty()) break;  // started while recording was off
      emit(TimelineItem{.kind = ItemKind::slice_end,
                        .category = ItemCategory::user_event,
                        .rank = e.rank,
                        .thread = e.thread,
                        .lane = e.event.event + 1,
                        .time_ns = e.time_ns,
                        .name = names_.event(e.rank, e.event.event),
                        .event = &open.back()});
      open.pop_back();
      break;
    }
    case TraceEventKind::event_atomic:
      instant(ItemCategory::user_event, names_.event(e.rank, e.event.event), nullptr);
      break;
    case TraceEventKind::iteration:
      instant(ItemCategory::iteration, "iteration", &names_.site(e.rank, e.event.site));
      break;
    case TraceEventKind::recording_off:
      instant(ItemCategory::recording, "recording paused", nullptr);
      break;
    case TraceEventKind::recording_on:
      instant(ItemCategory::recording, "recording resumed", nullptr);
      break;
    case TraceEventKind::task:  // names the task the interval just entered runs: no slice of its own
      break;
  }
}

void SliceBuilder::finish() {
  release_until(std::numeric_limits<double>::infinity(), true);
  // Threads in key order, so that the output does not depend on the hash table's.
  std::vector<std::uint64_t> keys;
  for (const auto& [key, s] : threads_) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  for (std::uint64_t key : keys) {
    ThreadState& s = threads_[key];
    const auto rank = static_cast<std::int64_t>(key >> 32);
    const auto thread = static_cast<std::uint32_t>(key);
    std::vector<std::uint32_t> ids;
    for (const auto& [id, open] : s.user_events) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for (std::uint32_t id : ids)
      for (auto& open = s.user_events[id]; !open.empty(); open.pop_back())
        emit(TimelineItem{.kind = ItemKind::slice_end,
                          .category = ItemCategory::user_event,
                          .rank = rank,
                          .thread = thread,
                          .lane = id + 1,
                          .time_ns = last_ns_,
                          .name = names_.event(rank, id),
                          .event = &open.back()});
    for (; !s.intervals.empty(); s.intervals.pop_back())
      emit(TimelineItem{.kind = ItemKind::slice_end,
                        .category = ItemCategory::interval,
                        .rank = rank,
                        .thread = thread,
                        .time_ns = last_ns_,
                        .name = s.intervals.back().site->name,
                        .site = s.intervals.back().site,
                        .event = &s.intervals.back().event});
  }
}

}  // namespace parperf::exports
