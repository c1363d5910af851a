#include "export/csv_writer.hpp"

#include "export/append_number.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "format/site_kinds.hpp"

namespace parperf::exports {

namespace {

std::string_view kind_word(format::TraceEventKind kind) {
  using format::TraceEventKind;
  switch (kind) {
    case TraceEventKind::enter:
      return "enter";
    case TraceEventKind::leave:
      return "leave";
    case TraceEventKind::operation:
      return "operation";
    case TraceEventKind::event_start:
      return "event start";
    case TraceEventKind::event_end:
      return "event end";
    case TraceEventKind::event_atomic:
      return "event";
    case TraceEventKind::iteration:
      return "iteration";
    case TraceEventKind::recording_off:
      return "recording off";
    case TraceEventKind::recording_on:
      return "recording on";
    case TraceEventKind::writer_wait:
      return "writer wait";
    case TraceEventKind::task:
      return "task";
  }
  return "unknown";
}

}  // namespace

CsvWriter::CsvWriter(const std::filesystem::path& path, const TimelineNames& names)
    : names_(names), file_(path) {
  file_.write("rank,thread,time_ns,local_ns,kind,name,file,line,duration_ns,bytes,partner,tag,text\r\n");
}

void CsvWriter::event(const analysis::TimelineEvent& e) {
  using format::TraceEventKind;
  const format::TraceEvent& ev = e.event;
  row_.clear();
  for (const std::int64_t n :
       {e.rank, std::int64_t{e.thread}, static_cast<std::int64_t>(std::llround(e.time_ns)),
        static_cast<std::int64_t>(std::llround(e.local_ns))}) {
    append_number(row_, n);
    row_ += ',';
  }
  row_ += kind_word(ev.kind);
  row_ += ',';
  const bool has_site = ev.kind == TraceEventKind::enter || ev.kind == TraceEventKind::leave ||
                        ev.kind == TraceEventKind::operation || ev.kind == TraceEventKind::iteration;
  const bool has_event = ev.kind == TraceEventKind::event_start || ev.kind == TraceEventKind::event_end ||
                         ev.kind == TraceEventKind::event_atomic;
  const SiteInfo* site = has_site ? &names_.site(e.rank, ev.site) : nullptr;
  if (site) append_csv_field(row_, site->name);
  if (has_event) append_csv_field(row_, names_.event(e.rank, ev.event));
  row_ += ',';
  if (site) append_csv_field(row_, site->file);
  row_ += ',';
  if (site && site->line > 0) append_number(row_, site->line);
  row_ += ',';
  if (ev.kind == TraceEventKind::operation || ev.kind == TraceEventKind::writer_wait)
    append_number(row_, std::llround(static_cast<double>(ev.duration) * ns_per_tick(e.rank)));
  row_ += ',';
  if (ev.kind == TraceEventKind::operation) {
    append_number(row_, ev.bytes);
    row_ += ',';
    if (ev.partner >= 0) append_number(row_, ev.partner);
    row_ += ',';
    const format::SiteKindInfo* info = format::site_kind_info(site->kind);
    if (info && info->site_class == format::SiteClass::point_to_point) append_number(row_, ev.match);
  } else if (ev.kind == TraceEventKind::task) {
    row_ += ',';
    row_ += ',';
    append_number(row_, ev.value);  // the task's id, in the tag column
  } else {
    row_ += ',';
    row_ += ',';
  }
  row_ += ',';
  append_csv_field(row_, ev.text);
  row_ += "\r\n";
  file_.write(row_);
}

double CsvWriter::ns_per_tick(std::int64_t rank) {
  if (!last_rank_ || last_rank_->rank != rank) last_rank_ = names_.find_rank(rank);
  return last_rank_ ? last_rank_->ns_per_tick : 1.0;
}

void CsvWriter::finish() { file_.close(); }

}  // namespace parperf::exports
