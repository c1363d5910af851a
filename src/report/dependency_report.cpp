#include "report/dependency_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "format/site_kinds.hpp"
#include "report/delay_cause_sentence.hpp"
#include "report/graph_links.hpp"
#include "report/location_label.hpp"
#include "report/printable_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

constexpr std::size_t kPathRowsShown = 8;
constexpr std::size_t kCausesShown = 5;
constexpr std::size_t kFunctionsShown = 10;

double seconds(double ns) { return ns * 1e-9; }

std::string kind_key(std::uint32_t kind) {
  const format::SiteKindInfo* info = format::site_kind_info(kind);
  return info ? std::string(info->key) : std::to_string(kind);
}

std::string interval_label(const analysis::GraphInterval& i) {
  if (i.name.empty()) return "code outside every interval";
  const format::SiteKindInfo* info = format::site_kind_info(i.kind);
  std::string label = fmt::format("'{}'", i.name);
  if (info && !info->words.empty()) label += fmt::format(" ({})", info->words);
  if (!i.file.empty())
    label += i.line > 0 ? fmt::format(" at {}:{}", i.file, i.line) : fmt::format(" in {}", i.file);
  return label;
}

json factors_json(const analysis::PopFactors& f) {
  json j{{"parallel_efficiency", f.parallel_efficiency},
         {"load_balance", f.load_balance},
         {"communication_efficiency", f.communication_efficiency}};
  j["serialisation_efficiency"] = f.serialisation_efficiency ? json(*f.serialisation_efficiency) : json();
  j["transfer_efficiency"] = f.transfer_efficiency ? json(*f.transfer_efficiency) : json();
  return j;
}

std::string cell(const std::optional<analysis::PopFactors>& f, double analysis::PopFactors::*field) {
  return f ? fmt::format("{:>10.3f}", (*f).*field) : fmt::format("{:>10}", "");
}
std::string cell(const std::optional<analysis::PopFactors>& f,
                 std::optional<double> analysis::PopFactors::*field) {
  return f && ((*f).*field) ? fmt::format("{:>10.3f}", *((*f).*field)) : fmt::format("{:>10}", "-");
}

// The phases' factors (recording switched by parperf_control, MPI_Pcontrol, omp_control_tool): the
// table above is over their time.
std::string phases_text(const analysis::Pop& pop) {
  std::string out =
      fmt::format("  Over the {} recorded phases; recording was off for {} between them. By phase:\n",
                  pop.phases.size(), format_duration(seconds(pop.paused_ns)));
  out += fmt::format("  {:<7}{:>12}{:>10}{:>10}{:>10}{:>10}{:>10}\n", "phase", "time", "PE", "LB", "CommE",
                     "SerE", "TransE");
  for (const analysis::PopPhase& p : pop.phases) {
    const std::optional<analysis::PopFactors> f = p.overall;
    out += fmt::format("  {:<7}{:>12}{}{}{}{}{}\n", p.phase, format_duration(seconds(p.run_time_ns())),
                       cell(f, &analysis::PopFactors::parallel_efficiency),
                       cell(f, &analysis::PopFactors::load_balance),
                       cell(f, &analysis::PopFactors::communication_efficiency),
                       cell(f, &analysis::PopFactors::serialisation_efficiency),
                       cell(f, &analysis::PopFactors::transfer_efficiency));
  }
  return out;
}

std::string function_label(const analysis::PathFunction& f) {
  return f.file.empty() ? f.name
                        : fmt::format("{} ({})", f.name, std::filesystem::path(f.file).filename().string());
}

// The functions the path ran, from the call-path samples: ranked by time on it, each with its share
// of the path, its own time there (as the interrupted function) and its time over the whole run.
std::string functions_text(const analysis::PathFunctions& f) {
  if (!f.sampled) return "  Functions on it: record with `parperf run --trace --sample` to see them.\n";
  std::string out =
      fmt::format("  Functions on it (from {} of the run's {} samples; time on it, share, self, total):\n",
                  f.path_samples, f.samples);
  std::size_t shown = 0;
  for (const analysis::PathFunction& row : f.functions) {
    if (row.time_ns <= 0 || shown++ == kFunctionsShown) break;
    out += fmt::format("    {:<48} {:>10} {:>7} {:>10} {:>10}\n", printable(function_label(row)),
                       format_duration(seconds(row.time_ns)), format_percent(row.share),
                       format_duration(seconds(row.self_ns)), format_duration(seconds(row.total_ns)));
  }
  if (shown == 0) out += "    (no sample fell on the path)\n";
  return out;
}

}  // namespace

std::string pop_text(const analysis::PopFactors& overall, const analysis::Pop* traced) {
  const analysis::PopFactors& o = traced ? traced->overall : overall;
  const std::optional<analysis::PopFactors> all = o;
  const std::optional<analysis::PopFactors> mpi = traced ? traced->mpi : std::nullopt;
  const std::optional<analysis::PopFactors> omp = traced ? traced->openmp : std::nullopt;
  std::string out = fmt::format("  {:<28}{:>10}{:>10}{:>10}\n", "", "overall", mpi ? traced->processes : "",
                                omp ? "OpenMP" : "");
  const auto row = [&](const char* name, auto field) {
    out +=
        fmt::format("  {:<28}{}{}{}\n", name, cell(all, field), mpi ? cell(mpi, field) : std::string(10, ' '),
                    omp ? cell(omp, field) : std::string(10, ' '));
  };
  row("Parallel efficiency", &analysis::PopFactors::parallel_efficiency);
  row("  Load balance", &analysis::PopFactors::load_balance);
  row("  Communication efficiency", &analysis::PopFactors::communication_efficiency);
  row("    Serialisation efficiency", &analysis::PopFactors::serialisation_efficiency);
  row("    Transfer efficiency", &analysis::PopFactors::transfer_efficiency);
  if (traced)
    out += fmt::format(
        "  {} {}, on an ideal network and runtime {}; useful computation per location: max {}, mean {}\n",
        traced->phases.empty() ? "Run" : "Phases", format_duration(seconds(traced->run_time_ns)),
        format_duration(seconds(traced->ideal_time_ns)), format_duration(seconds(traced->max_useful_ns)),
        format_duration(seconds(traced->mean_useful_ns)));
  else
    out +=
        "  Serialisation and transfer efficiency need the event trace: record with `parperf run --trace`.\n";
  if (traced && !traced->phases.empty()) out += phases_text(*traced);
  return out;
}

json pop_json(const analysis::PopFactors& overall, const analysis::Pop* traced) {
  json j = factors_json(traced ? traced->overall : overall);
  j["source"] = traced ? "trace" : "profile";
  if (traced) {
    if (traced->mpi) j["mpi"] = factors_json(*traced->mpi);
    if (traced->openmp) j["openmp"] = factors_json(*traced->openmp);
    j["run_time"] = seconds(traced->run_time_ns);
    j["ideal_time"] = seconds(traced->ideal_time_ns);
    j["ideal_network_time"] = seconds(traced->ideal_mpi_time_ns);
    j["max_useful"] = seconds(traced->max_useful_ns);
    j["mean_useful"] = seconds(traced->mean_useful_ns);
    j["phases"] = json::array();
    for (const analysis::PopPhase& p : traced->phases) {
      json phase{{"phase", p.phase},
                 {"ranks", p.ranks},
                 {"begin", seconds(p.begin_ns)},
                 {"end", seconds(p.end_ns)},
                 {"run_time", seconds(p.run_time_ns())}};
      phase.update(factors_json(p.overall));
      if (p.mpi) phase["mpi"] = factors_json(*p.mpi);
      if (p.openmp) phase["openmp"] = factors_json(*p.openmp);
      phase["ideal_time"] = seconds(p.ideal_time_ns);
      phase["max_useful"] = seconds(p.max_useful_ns);
      phase["mean_useful"] = seconds(p.mean_useful_ns);
      j["phases"].push_back(std::move(phase));
    }
    j["paused_time"] = seconds(traced->paused_ns);
  } else {
    j["needs_trace"] = {"serialisation_efficiency", "transfer_efficiency"};
  }
  return j;
}

std::string unexplained_startup_sentence(const analysis::CriticalPath& p) {
  if (!p.startup_unexplained) return {};
  return fmt::format(
      "{} of the path ({}) is start-up: a location's time before its first event, which no traced "
      "dependency explains (a thread created by code the trace does not link, a process started late); "
      "whatever ran before may be what held it back, so no interval is said to be off the path",
      format_duration(seconds(p.startup_ns)), format_percent(p.startup_ns / p.length_ns));
}

std::string critical_path_text(const analysis::TraceAnalysis& a) {
  const analysis::CriticalPath& p = a.critical_path;
  std::string out = "Critical path (from the event trace)\n";
  if (p.length_ns <= 0) return out + "  The trace holds no activity to follow.\n";
  out +=
      fmt::format("  Length {} (the run's time), through {} location{}, changing location {} time{}\n",
                  format_duration(seconds(p.length_ns)), p.locations.size(),
                  p.locations.size() == 1 ? "" : "s", p.location_changes, p.location_changes == 1 ? "" : "s");
  if (p.computation_ns > 0)
    out += fmt::format(
        "  Computation on it: {} ({}), of which {} while the other locations worked and {} while "
        "they waited or idled\n",
        format_duration(seconds(p.computation_ns)), format_percent(p.computation_ns / p.length_ns),
        format_duration(seconds(p.while_others_work_ns)), format_duration(seconds(p.while_others_wait_ns)));
  out += "  Intervals on the path (time on it, share of it):\n";
  std::size_t shown = 0;
  for (const analysis::PathInterval& i : p.intervals) {
    if (i.time_ns <= 0 || shown == kPathRowsShown) break;
    ++shown;
    out += fmt::format("    {:<56} {:>10} {:>7}\n", printable(interval_label(i.interval)),
                       format_duration(seconds(i.time_ns)), format_percent(i.share));
  }
  if (shown == 0) out += fmt::format("    {}\n", kNoIntervalOnPath);
  for (const analysis::PathInterval& i : p.intervals)
    if (i.off_path)
      out += fmt::format("    {} is off the path ({} of it for {} of work): making it faster gains nothing\n",
                         printable(interval_label(i.interval)), format_percent(i.share),
                         format_duration(seconds(i.total_ns)));
  if (const std::string s = unexplained_startup_sentence(p); !s.empty()) out += fmt::format("    {}\n", s);
  out += functions_text(p.functions);
  out += "  Activities on the path:\n";
  for (std::size_t k = 0; k < std::min(p.activities.size(), kPathRowsShown); ++k)
    out +=
        fmt::format("    {:<56} {:>10} {:>7}\n", printable(p.activities[k].name),
                    format_duration(seconds(p.activities[k].time_ns)), format_percent(p.activities[k].share));
  out += "  Locations on the path:\n";
  const RunLocations run = run_locations(a);
  for (std::size_t k = 0; k < std::min(p.locations.size(), kPathRowsShown); ++k)
    out += fmt::format(
        "    {:<56} {:>10} {:>7}\n", location_label(run, p.locations[k].rank, p.locations[k].thread),
        format_duration(seconds(p.locations[k].time_ns)), format_percent(p.locations[k].share));
  if (p.locations.size() > kPathRowsShown)
    out += fmt::format("    ... and {} more\n", p.locations.size() - kPathRowsShown);
  out += fmt::format("  {}\n", linked_sentence(*a.graph));
  const analysis::GraphUnlinked& u = a.graph->unlinked;
  const std::uint64_t unlinked = u.sends + u.receives + u.incomplete_collectives + u.nonblocking_collectives +
                                 u.shmem_collectives + u.shmem_waits + u.shmem_locks + u.window_waits +
                                 u.outside_window + u.cycles_broken + u.task_pieces;
  if (unlinked > 0)
    out += fmt::format(
        "  Not linked (their waiting is taken as measured): {} sends, {} receives, {} incomplete and {} "
        "non-blocking collectives, {} OpenSHMEM collectives without every member or their active set, {} "
        "waits without a put, {} OpenSHMEM lock acquisitions (the trace does not say which lock), {} MPI "
        "window locks, starts and waits (the trace does not say whom they waited for), {} in start-up or "
        "shut-down, {} cycles broken, {} OpenMP task pieces without their task's creation\n",
        u.sends, u.receives, u.incomplete_collectives, u.nonblocking_collectives, u.shmem_collectives,
        u.shmem_waits, u.shmem_locks, u.window_waits, u.outside_window, u.cycles_broken, u.task_pieces);
  out += fmt::format("  {}\n", clock_repair_sentence(a.repair));
  return out;
}

json critical_path_json(const analysis::CriticalPath& p) {
  json j{{"length", seconds(p.length_ns)}};
  j["intervals"] = json::array();
  for (const analysis::PathInterval& i : p.intervals)
    j["intervals"].push_back({{"name", i.interval.name},
                              {"kind", kind_key(i.interval.kind)},
                              {"file", i.interval.file},
                              {"line", i.interval.line},
                              {"time", seconds(i.time_ns)},
                              {"share", i.share},
                              {"total_time", seconds(i.total_ns)},
                              {"off_path", i.off_path}});
  j["locations"] = json::array();
  for (const analysis::PathLocation& l : p.locations)
    j["locations"].push_back(
        {{"rank", l.rank}, {"thread", l.thread}, {"time", seconds(l.time_ns)}, {"share", l.share}});
  j["activities"] = json::array();
  for (const analysis::PathActivity& a : p.activities)
    j["activities"].push_back({{"name", a.name}, {"time", seconds(a.time_ns)}, {"share", a.share}});
  j["functions"] = json::array();
  for (const analysis::PathFunction& f : p.functions.functions)
    j["functions"].push_back({{"name", f.name},
                              {"file", f.file},
                              {"module", f.module},
                              {"time", seconds(f.time_ns)},
                              {"self", seconds(f.self_ns)},
                              {"share", f.share},
                              {"total_time", seconds(f.total_ns)},
                              {"samples", f.samples}});
  j["function_samples"] = {{"sampled", p.functions.sampled},
                           {"samples", p.functions.samples},
                           {"on_path", p.functions.path_samples}};
  j["location_changes"] = p.location_changes;
  j["startup"] = seconds(p.startup_ns);
  j["computation"] = seconds(p.computation_ns);
  j["while_others_work"] = seconds(p.while_others_work_ns);
  j["while_others_wait"] = seconds(p.while_others_wait_ns);
  return j;
}

std::vector<std::string> delay_cause_sentences(const analysis::TraceAnalysis& a, std::size_t count) {
  std::vector<std::string> out;
  const RunLocations run = run_locations(a);
  for (const analysis::DelayCause& c : a.delays.causes) {
    // Each cause named at 1 % of what was traced back to computation, not of all the waiting: a run
    // whose waits mostly trace back to time inside calls still names the computation behind the rest.
    if (out.size() == count || c.delay_ns < 0.01 * a.delays.charged_ns) break;
    std::optional<analysis::IntervalIdentity> interval;
    if (!c.interval.name.empty())
      interval = analysis::IntervalIdentity{
          .kind = c.interval.kind, .name = c.interval.name, .file = c.interval.file, .line = c.interval.line};
    std::string sentence = delay_cause_sentence(
        {location_label(run, c.rank, c.thread), interval, seconds(c.delay_ns), c.waiting});
    sentence[0] = static_cast<char>(sentence[0] - 'a' + 'A');  // "Rank 2's", "Thread 1's"
    out.push_back(std::move(sentence));
  }
  return out;
}

std::string delay_costs_summary(const analysis::TraceAnalysis& a) {
  if (a.delays.waiting_ns <= 0) return {};
  // The walks charge only computation: the time inside calls, idling or start-up on the paths that
  // made a node late uses up its wait uncharged.
  constexpr std::string_view kRest =
      "time inside MPI, OpenSHMEM or OpenMP calls, idling or start-up on the paths that made the partners "
      "late";
  const std::string waiting = format_duration(seconds(a.delays.waiting_ns));
  if (a.delays.charged_ns <= 0)
    return fmt::format("{} of waiting in all, none of it traced back to computation: all of it to {}",
                       waiting, kRest);
  std::string out =
      fmt::format("{} of waiting in all; {} of it traced back to the computation that caused it", waiting,
                  format_duration(seconds(a.delays.charged_ns)));
  if (a.delays.charged_ns < 0.99 * a.delays.waiting_ns) out += fmt::format(" (the rest to {})", kRest);
  return out;
}

std::string delay_costs_text(const analysis::TraceAnalysis& a) {
  std::string out = "Root causes of waiting (delay costs, from the event trace)\n";
  if (a.delays.waiting_ns <= 0) return out + "  No location waited for another.\n";
  out += "  " + delay_costs_summary(a);
  if (a.delays.charged_ns <= 0) return out + "\n";
  out += ":\n";
  const std::vector<std::string> causes = delay_cause_sentences(a, kCausesShown);
  for (const std::string& s : causes) out += fmt::format("    {}\n", printable(s));
  if (causes.empty()) out += "    no one cause accounts for 1 % of it\n";
  return out;
}

json delay_costs_json(const analysis::DelayCosts& d) {
  json j{{"waiting", seconds(d.waiting_ns)}, {"charged", seconds(d.charged_ns)}};
  j["causes"] = json::array();
  for (const analysis::DelayCause& c : d.causes)
    j["causes"].push_back({{"rank", c.rank},
                           {"thread", c.thread},
                           {"interval", c.interval.name},
                           {"file", c.interval.file},
                           {"line", c.interval.line},
                           {"delay", seconds(c.delay_ns)},
                           {"waiting_locations", c.waiting},
                           {"waits", c.waits}});
  return j;
}

json clock_repair_json(const analysis::ClockRepair& r) {
  return {{"dependencies", r.edges},
          {"violations", r.violations},
          {"moved", r.moved},
          {"largest_shift", seconds(r.largest_shift_ns)},
          {"remaining", r.remaining}};
}

std::string clock_repair_sentence(const analysis::ClockRepair& r) {
  if (r.moved == 0)
    return fmt::format("Clock condition: all {} dependencies ran forward in time; no event moved", r.edges);
  return fmt::format(
      "Clock condition restored: {} of {} dependencies ended before they began after clock correction; {} "
      "events moved forward, by at most {}",
      r.violations, r.edges, r.moved, format_duration(seconds(r.largest_shift_ns)));
}

}  // namespace parperf::report
