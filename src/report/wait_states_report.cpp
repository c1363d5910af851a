#include "report/wait_states_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/location_label.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;

double seconds(double ns) { return ns * 1e-9; }

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string clock_check_text(const analysis::ClockCheck& c) {
  if (c.violations == 0)
    return fmt::format("  Clock check: no message was received before it was sent ({} checked)\n",
                       plural(c.messages, "message", "messages"));
  return fmt::format(
      "  Clock check: {} of {} were received before they were sent, after clock correction; worst: "
      "rank {} to rank {}, received {} before it was sent. Times compared across these ranks are off by "
      "at least that much.\n",
      c.violations, plural(c.messages, "message", "messages"), c.worst.sender, c.worst.receiver,
      format_duration(seconds(c.worst.early_ns)));
}

template <class Row, class Label>
void rows_text(std::string& out, const char* title, const std::vector<Row>& rows, Label label) {
  if (rows.empty()) return;
  out += fmt::format("    {}:\n", title);
  for (std::size_t i = 0; i < std::min(rows.size(), kWaitRowsShown); ++i)
    out += fmt::format("      {:<40} {:>10}  {}\n", label(rows[i]), format_duration(seconds(rows[i].lost_ns)),
                       plural(rows[i].instances, "wait", "waits"));
  if (rows.size() > kWaitRowsShown)
    out += fmt::format("      ... and {} more\n", rows.size() - kWaitRowsShown);
}

std::string pattern_text(const analysis::PatternWaits& p, const RunLocations& run) {
  std::string out = fmt::format("  {}: {} lost in {}\n", analysis::pattern_title(p.pattern),
                                format_duration(seconds(p.lost_ns)), plural(p.instances, "wait", "waits"));
  rows_text(out, "at", p.sites, [](const analysis::WaitSite& s) {
    return s.location == s.name ? s.name : fmt::format("{} ({})", s.location, s.name);
  });
  rows_text(out, "waiting", p.waiting,
            [&](const analysis::WaitingLocation& w) { return location_label(run, w.rank, w.thread); });
  rows_text(out, "caused by", p.causes,
            [&](const analysis::WaitCause& c) { return location_label(run, c.rank, c.thread); });
  return out;
}

json share_json(const analysis::WaitShare& s) {
  json j;
  j["lost"] = seconds(s.lost_ns);
  j["instances"] = s.instances;
  return j;
}

json pattern_json(const analysis::PatternWaits& p) {
  json j;
  j["pattern"] = analysis::pattern_key(p.pattern);
  j["lost"] = seconds(p.lost_ns);
  j["instances"] = p.instances;
  j["sites"] = json::array();
  for (const analysis::WaitSite& s : p.sites) {
    json row{{"name", s.name}, {"location", s.location}};
    row.update(share_json(s));
    j["sites"].push_back(row);
  }
  j["waiting"] = json::array();
  for (const analysis::WaitingLocation& w : p.waiting) {
    json row{{"rank", w.rank}, {"thread", w.thread}};
    row.update(share_json(w));
    j["waiting"].push_back(row);
  }
  j["causes"] = json::array();
  for (const analysis::WaitCause& c : p.causes) {
    json row{{"rank", c.rank}};
    if (c.thread) row["thread"] = *c.thread;
    row.update(share_json(c));
    j["causes"].push_back(row);
  }
  return j;
}

}  // namespace

std::string wait_states_text(const analysis::TraceAnalysis& a) {
  std::string out = "Wait states (from the event trace)\n";
  out += fmt::format("  {} traced: {} matched, {} collective instances\n", plural(a.ranks, "rank", "ranks"),
                     plural(a.messages, "message", "messages"), a.collectives);
  if (a.unmatched_sends || a.unmatched_receives || a.incomplete_collectives)
    out += fmt::format(
        "  Not paired: {} sends, {} receives, {} collective instances (a trace cut short, a rank not "
        "traced)\n",
        a.unmatched_sends, a.unmatched_receives, a.incomplete_collectives);
  out += clock_check_text(a.clock);
  // The patterns are MPI's and OpenMP's, and the locks' handovers: a run's other OpenSHMEM waits are
  // not among them, and "no rank waited" would deny the waiting the SRC points and the root causes of
  // waiting show.
  // (The run's names of operations: analysed by parts, the graph here has no nodes.)
  const bool shmem = a.graph && std::any_of(a.graph->operations.begin(), a.graph->operations.end(),
                                            [](const std::string& o) { return o.starts_with("shmem_"); });
  if (a.waits.patterns.empty())
    out +=
        shmem
            ? "  No wait states in its MPI messages and collectives, OpenMP barriers and locks or OpenSHMEM "
              "locks.\n"
            : "  No wait states: no rank or thread waited for another.\n";
  if (shmem)
    out +=
        "  OpenSHMEM's barriers, collectives and waits are not analysed as wait states here (its locks are: "
        "Lock Competition): their waiting is in the SRC points and, traced back to what caused it, in the "
        "root causes of waiting.\n";
  const RunLocations run = run_locations(a);
  for (const analysis::PatternWaits& p : a.waits.patterns) out += pattern_text(p, run);
  for (const std::string& w : a.warnings) out += fmt::format("  warning: {}\n", w);
  return out;
}

json wait_states_json(const analysis::TraceAnalysis& a) {
  json j{{"ranks", a.ranks},
         {"messages", a.messages},
         {"unmatched_sends", a.unmatched_sends},
         {"unmatched_receives", a.unmatched_receives},
         {"collectives", a.collectives},
         {"incomplete_collectives", a.incomplete_collectives}};
  json clock{{"messages", a.clock.messages}, {"violations", a.clock.violations}};
  if (a.clock.violations)
    clock["worst"] = {{"sender", a.clock.worst.sender},
                      {"receiver", a.clock.worst.receiver},
                      {"early", seconds(a.clock.worst.early_ns)}};
  j["clock_check"] = clock;
  j["patterns"] = json::array();
  for (const analysis::PatternWaits& p : a.waits.patterns) j["patterns"].push_back(pattern_json(p));
  j["warnings"] = a.warnings;
  return j;
}

}  // namespace parperf::report
