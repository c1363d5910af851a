#include "report/json_report.hpp"
#include "report/sampled_functions.hpp"

#include <ctime>

#include "analysis/processors.hpp"
#include "report/findings_json.hpp"
#include "report/interval_kind.hpp"
#include "report/json_optional.hpp"
#include "report/json_text.hpp"
#include "report/loop_balance_json.hpp"
#include "report/mpi_json.hpp"
#include "report/src_summary.hpp"
#include "report/traffic_report.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

std::string_view figure_key(analysis::Figure figure) {
  switch (figure) {
    case analysis::Figure::execution_time:
      return "execution_time";
    case analysis::Figure::productive_time:
      return "productive_time";
    case analysis::Figure::lost_time:
      return "lost_time";
    case analysis::Figure::idle_time:
      return "idle_time";
    case analysis::Figure::load_imbalance:
      return "load_imbalance";
    case analysis::Figure::insufficient_parallelism:
      return "insufficient_parallelism";
    case analysis::Figure::communication:
      return "communication";
    case analysis::Figure::os_cpu_user:
      return "os_cpu_user";
    case analysis::Figure::os_cpu_sys:
      return "os_cpu_sys";
    case analysis::Figure::entries:
      return "count";  // the name "count" has everywhere else
  }
  return "unknown";
}

std::string_view end_reason_key(format::EndReason reason) {
  switch (reason) {
    case format::EndReason::exit:
      return "exit";
    case format::EndReason::flush:
      return "flush";
    case format::EndReason::signal:
      return "signal";
    case format::EndReason::mpi_abort:
      return "mpi_abort";
    case format::EndReason::global_exit:
      return "global_exit";
  }
  return "unknown";
}

// ISO 8601 in UTC ("2026-11-27T03:50:20Z"), or null.
json started_json(std::optional<double> unix_seconds) {
  if (!unix_seconds) return nullptr;
  const auto seconds = static_cast<std::time_t>(*unix_seconds);
  std::tm utc{};
  if (gmtime_r(&seconds, &utc) == nullptr) return nullptr;
  char text[32];
  if (std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0) return nullptr;
  return text;
}

}  // namespace

json run_json(const RunSummary& run) {
  json ends = json::array();
  for (const ProfileEnd& end : run.end_reasons) {
    json e = {{"rank", end.rank}, {"file", end.file}, {"reason", end_reason_key(end.reason)}};
    e["signal"] = end.reason == format::EndReason::signal ? json(end.signal) : json(nullptr);
    ends.push_back(std::move(e));
  }
  json slowest = nullptr;
  if (run.slowest_rank)
    slowest = {{"rank", run.slowest_rank->rank},
               {"execution_time", run.slowest_rank->execution_time},
               {"spread", run.slowest_rank->spread}};
  return {{"directory", run.directory},
          {"command", run.command},
          {"host", run.host},
          {"started", started_json(run.started_unix_s)},
          {"wall_time", optional_value(run.wall_time)},
          {"processes", run.processes},
          {"world_size", run.world_size},
          {"threads", run.threads},
          {"unit", analysis::unit_name(run.unit)},
          {"view_rank", optional_value(run.view_rank)},
          {"end_reasons", std::move(ends)},
          {"missing_ranks", run.missing_ranks},
          {"slowest_rank", std::move(slowest)},
          {"openmp_runtime", run.openmp_runtime},
          {"openmp_runtime_substituted", run.openmp_runtime_substituted},
          {"mpi", mpi_run_json(run.mpi)},
          {"one_sided_traffic", traffic_json(run.traffic)},
          {"probe_compensation",
           {{"applied", run.probe_compensation.applied},
            {"locations", run.probe_compensation.locations},
            {"entry_ns", run.probe_compensation.entry_ns},
            {"inside_ns", run.probe_compensation.inside_ns},
            {"mark_ns", run.probe_compensation.mark_ns},
            {"removed_time", run.probe_compensation.removed_seconds},
            {"removed_share", run.probe_compensation.removed_share}}},
          {"warnings", run.warnings}};
}

namespace {

json comparative_json(const analysis::Comparative& comparative) {
  json out = json::object();
  for (analysis::Figure figure : analysis::kFigures) {
    const analysis::Extreme& e = comparative[figure];
    out[std::string(figure_key(figure))] = {{"min", e.min},
                                            {"min_processor", optional_value(e.min_processor)},
                                            {"max", e.max},
                                            {"max_processor", optional_value(e.max_processor)},
                                            {"mean", e.mean}};
  }
  return out;
}

json processor_json(const analysis::ProcessorFigures& p) {
  return {{"processor", p.processor},           {"rank", p.rank},
          {"thread", optional_value(p.thread)}, {"count", p.entries},
          {"execution_time", p.execution_time}, {"productive_time", p.productive_time},
          {"lost_time", p.lost_time},           {"idle_time", p.idle_time},
          {"load_imbalance", p.load_imbalance}, {"insufficient_parallelism", p.insufficient_parallelism},
          {"communication", p.communication},   {"os_cpu_user", p.os_cpu_user},
          {"os_cpu_sys", p.os_cpu_sys}};
}

}  // namespace

json event_json(const analysis::EventTotals& e) {
  return {{"name", e.name},       {"description", e.description},
          {"starts", e.starts},   {"ends", e.ends},
          {"atomics", e.atomics}, {"total", e.total},
          {"mean", e.mean},       {"min", e.min},
          {"max", e.max},         {"first_description", e.first_description}};
}

namespace {

json interval_json(const ReportInterval& interval) {
  const analysis::Characteristics& c = interval.characteristics;
  const analysis::IntervalIdentity& id = interval.identity;
  json out = {{"kind", kind_key(id.kind)},
              {"name", id.name},
              {"file", id.file},
              {"line", id.line},
              {"end_line", id.end_line},
              {"function", id.function},
              {"value", id.value},
              {"level", interval.level},
              {"count", interval.count},
              {"open", interval.open},
              {"efficiency", c.efficiency},
              {"execution_time", c.execution_time},
              {"processors", c.processors},
              {"threads", c.threads},
              {"total_time", c.total_time},
              {"productive_time", c.productive_time},
              {"productive_cpu", c.productive_cpu},
              {"productive_sys", c.productive_sys},
              {"productive_io", c.productive_io},
              {"lost_time", c.lost_time},
              {"insufficient_parallelism", c.insufficient_parallelism},
              {"insufficient_parallelism_user", c.insufficient_parallelism_user},
              {"insufficient_parallelism_sys", c.insufficient_parallelism_sys},
              {"communication", c.communication},
              {"communication_real_sync", c.communication_real_sync},
              {"communication_starts", c.communication_starts},
              {"idle_time", c.idle_time},
              {"desync_time", c.desync},
              {"waiting_time", c.waiting},
              {"load_imbalance", c.load_imbalance},
              {"synchronization", c.synchronization},
              {"time_variation", c.time_variation},
              {"overlap", c.overlap},
              {"startup_time", c.startup},
              {"shutdown_time", c.shutdown},
              {"os_cpu_user", c.os_cpu_user},
              {"os_cpu_sys", c.os_cpu_sys},
              {"comparative", comparative_json(interval.comparative)}};
  json rows = json::array();
  for (const analysis::ProcessorFigures& p : interval.per_processor) rows.push_back(processor_json(p));
  out["per_processor"] = std::move(rows);
  if (interval.iterations) {
    const analysis::IterationTotals& it = *interval.iterations;
    out["iterations"] = {
        {"count", it.count}, {"total", it.total}, {"mean", it.mean}, {"min", it.min}, {"max", it.max}};
  }
  if (interval.loop_balance)
    out["loop_balance"] = loop_balance_json(*interval.loop_balance, interval.loop_finding);
  json events = json::array();
  for (const analysis::EventTotals& e : interval.events) events.push_back(event_json(e));
  out["events"] = std::move(events);
  out["communication_classes"] = communication_classes_json(interval.communication_classes);
  out["mpi_calls"] = mpi_calls_json(interval.mpi_calls);
  out["diagnosis"] = interval.diagnosis;
  json children = json::array();
  for (const ReportInterval& child : interval.children) children.push_back(interval_json(child));
  out["children"] = std::move(children);
  return out;
}

}  // namespace

json src_point_json(const analysis::SrcPoint& p, double program_total) {
  json locations = json::array();
  for (const analysis::Location& l : p.locations)
    locations.push_back({{"rank", l.rank}, {"thread", l.thread}});
  auto per_count = [&](double v) { return p.count ? v / static_cast<double>(p.count) : 0.0; };
  return {
      {"kind", kind_key(p.identity.kind)},
      {"name", p.identity.name},
      {"description", src_point_text(p)},
      {"file", p.identity.file},
      {"line", p.identity.line},
      {"function", p.identity.function},
      {"construct", p.identity.construct_kind ? json(kind_key(p.identity.construct_kind)) : json(nullptr)},
      {"interval",
       {{"kind", kind_key(p.interval.kind)}, {"name", p.interval.name}, {"line", p.interval.line}}},
      {"combined_construct", p.combined_construct ? json({{"kind", kind_key(p.combined_construct->kind)},
                                                          {"file", p.combined_construct->file},
                                                          {"line", p.combined_construct->line}})
                                                  : json(nullptr)},
      {"count", p.count},
      {"total", p.total},
      {"wait", p.wait},
      {"wait_mean", per_count(p.wait)},
      {"wait_max", p.wait_max},
      {"sync", p.sync},
      {"sync_mean", per_count(p.sync)},
      {"sync_max", p.sync_max},
      {"starts", p.starts},
      {"lost", p.lost()},
      {"lost_share", program_total > 0 ? p.lost() / program_total : 0.0},
      {"imbalance", p.imbalance},
      {"synchronization", p.synchronization},
      {"time_variation", p.time_variation},
      {"overlap", p.overlap},
      {"arrival_spread", p.arrival_spread},
      {"bytes", p.bytes},
      {"locations", std::move(locations)}};
}

namespace {

std::string_view thread_kind_key(format::ThreadKind kind) {
  switch (kind) {
    case format::ThreadKind::initial:
      return "initial";
    case format::ThreadKind::openmp_worker:
      return "openmp_worker";
    default:
      return "other";
  }
}

}  // namespace

nlohmann::ordered_json render_json(const Report& report) {
  json intervals = json::array();
  for (const ReportInterval& interval : report.intervals) intervals.push_back(interval_json(interval));
  json threads = json::array();
  for (const ThreadLine& t : report.threads)
    threads.push_back({{"rank", t.location.rank},
                       {"thread", t.location.thread},
                       {"kind", thread_kind_key(t.kind)},
                       {"master", t.master},
                       {"parked", t.parked}});
  json points = json::array();
  for (const analysis::SrcPoint& p : report.src_points)
    points.push_back(src_point_json(p, report.program_total_time));
  json loops = json::array();  // innermost first: each loop's full figures are in its interval
  for (const analysis::LoopBalance& loop : report.loops)
    loops.push_back({{"kind", kind_key(loop.identity.kind)},
                     {"name", loop.identity.name},
                     {"file", loop.identity.file},
                     {"line", loop.identity.line},
                     {"value", loop.identity.value},
                     {"inner_loop_depth", loop.inner_loop_depth},
                     {"balanced", loop.balanced}});
  return {{"parperf_report", kJsonReportVersion},
          {"run", run_json(report.run)},
          {"threads", std::move(threads)},
          {"summary", report.summary},
          {"intervals", std::move(intervals)},
          // After the intervals: readers that search the document for the first object of a kind
          // (the program interval) must not meet a finding's `interval` first.
          {"findings", findings_json(report.findings)},
          {"src_points", std::move(points)},
          {"loops", std::move(loops)},
          {"mpi", mpi_json(report.collectives)},
          {"samples", samples_json(report.samples, kSampledRows)}};
}

std::string render_json_text(const Report& report) { return json_text(render_json(report)); }

}  // namespace parperf::report
