#include "report/html/dependency_sections.hpp"

#include <string>

#include "report/dependency_report.hpp"
#include "report/graph_links.hpp"
#include "report/location_label.hpp"

namespace parperf::report::html {
namespace {

using json = nlohmann::ordered_json;

}  // namespace

json pop_section(const analysis::PopFactors& profile, const analysis::Pop* traced) {
  return pop_json(profile, traced);
}

json critical_path_section(const analysis::TraceAnalysis& a) {
  const analysis::CriticalPath& p = a.critical_path;
  json j = critical_path_json(p);
  const RunLocations run = run_locations(a);
  for (std::size_t k = 0; k < p.locations.size(); ++k)
    j["locations"][k]["name"] = location_label(run, p.locations[k].rank, p.locations[k].thread);
  if (a.graph) j["dependencies"] = linked_sentence(*a.graph);
  j["clock_repair"] = clock_repair_sentence(a.repair);
  j["no_interval"] = std::string(kNoIntervalOnPath);
  if (const std::string s = unexplained_startup_sentence(p); !s.empty()) j["startup_note"] = s;
  return j;
}

json delay_costs_section(const analysis::TraceAnalysis& a) {
  json j{{"waiting", a.delays.waiting_ns * 1e-9}, {"charged", a.delays.charged_ns * 1e-9}};
  j["summary"] = delay_costs_summary(a);
  j["causes"] = delay_cause_sentences(a, 10);
  return j;
}

}  // namespace parperf::report::html
