#include "report/html/dependency_sections.hpp"

#include <set>
#include <string>

#include <fmt/format.h>

#include "report/dependency_report.hpp"

namespace parperf::report::html {
namespace {

using json = nlohmann::ordered_json;

// An interval with at least this share of the run's work on all locations and under 1 % of the path
// is named as off the path: the rule of critical_path_text, so that the page and the text agree.
constexpr double kOffPathShare = 0.01;
constexpr double kOffPathWork = 0.05;

// How the page names a location: by rank when the run has several, by thread when a rank has several.
std::string location_name(const analysis::PathLocation& l, bool ranks, bool threads) {
  if (ranks && threads) return fmt::format("rank {} thread {}", l.rank, l.thread);
  if (ranks) return fmt::format("rank {}", l.rank);
  return fmt::format("thread {}", l.thread);
}

}  // namespace

json pop_section(const analysis::PopFactors& profile, const analysis::Pop* traced) {
  return pop_json(profile, traced);
}

json critical_path_section(const analysis::TraceAnalysis& a) {
  const analysis::CriticalPath& p = a.critical_path;
  json j = critical_path_json(p);
  for (std::size_t k = 0; k < p.intervals.size(); ++k)
    j["intervals"][k]["off_path"] = p.length_ns > 0 && p.intervals[k].share < kOffPathShare &&
                                    p.intervals[k].total_ns >= kOffPathWork * p.length_ns;
  std::set<std::int64_t> ranks;
  bool threads = false;
  if (a.graph)
    for (const analysis::GraphLocation& l : a.graph->locations) {
      ranks.insert(l.rank);
      threads |= l.thread != 0;
    }
  for (std::size_t k = 0; k < p.locations.size(); ++k)
    j["locations"][k]["name"] = location_name(p.locations[k], ranks.size() > 1, threads || ranks.size() <= 1);
  j["clock_repair"] = clock_repair_sentence(a.repair);
  return j;
}

json delay_costs_section(const analysis::TraceAnalysis& a) {
  json j{{"waiting", a.delays.waiting_ns * 1e-9}, {"charged", a.delays.charged_ns * 1e-9}};
  j["causes"] = delay_cause_sentences(a, 10);
  return j;
}

}  // namespace parperf::report::html
