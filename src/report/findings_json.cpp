#include "report/findings_json.hpp"

#include <string>

#include "report/finding_keys.hpp"
#include "report/interval_kind.hpp"
#include "report/src_summary.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::ordered_json;
using analysis::Finding;

json interval_json(const analysis::IntervalIdentity& id) {
  return {{"kind", kind_key(id.kind)}, {"name", id.name}, {"file", id.file}, {"line", id.line}};
}

json location_json(const std::string& file, std::int64_t line) {
  if (file.empty()) return nullptr;
  return {{"file", file}, {"line", line}};
}

// The interval a finding concerns: an SRC point's, a loop, the longest serial section.
json finding_interval(const Finding& f) {
  if (f.src_point) return interval_json(f.src_point->interval);
  if (f.loop) return interval_json(f.loop->identity);
  if (!f.serial_sections.empty()) return interval_json(f.serial_sections.front().identity);
  if (f.interval) return interval_json(*f.interval);
  return nullptr;
}

// The code location it names: the SRC point, the loop, the longest serial section, the function,
// the start-up call.
json finding_location(const Finding& f) {
  if (f.src_point) return location_json(f.src_point->identity.file, f.src_point->identity.line);
  if (f.loop) return location_json(f.loop->identity.file, f.loop->identity.line);
  if (!f.serial_sections.empty())
    return location_json(f.serial_sections.front().identity.file, f.serial_sections.front().identity.line);
  if (f.function) return location_json(f.function->file, f.function->line);
  if (f.startup_call) return location_json(f.startup_call->file, f.startup_call->line);
  if (f.interval) return location_json(f.interval->file, f.interval->line);
  return nullptr;
}

json compared_json(const analysis::ComparedFunction& f) {
  return {{"function", f.function},
          {"file", f.file},
          {"line", f.line},
          {"late_samples", f.late_samples},
          {"waiting_samples", f.waiting_samples},
          {"late_share", f.late_share},
          {"waiting_share", f.waiting_share}};
}

// What the samples say about the wait (docs/diagnosis.md, "Sampled causes"); null when nothing.
json sampled_cause_json(const Finding& f) {
  if (!f.sampled_cause) return nullptr;
  const analysis::SampledCause& c = *f.sampled_cause;
  json functions = json::array();
  for (const analysis::ComparedFunction& function : c.functions) functions.push_back(compared_json(function));
  return {{"clock", c.wall_clock ? "wall" : "cpu"},
          {"unit", analysis::unit_name(c.unit)},
          {"intervals", c.intervals},
          {"late", c.late},
          {"waiting", c.waiting},
          {"late_samples", c.late_samples},
          {"waiting_samples", c.waiting_samples},
          {"functions", std::move(functions)},
          {"waiting_in", c.waiting_in ? compared_json(*c.waiting_in) : json(nullptr)}};
}

}  // namespace

json findings_json(const std::vector<Finding>& findings) {
  json out = json::array();
  for (const Finding& f : findings) {
    json evidence = json::object();
    for (const analysis::Evidence& e : f.evidence) evidence[std::string(e.key)] = e.value;
    out.push_back(
        {{"rule", rule_key(f.kind)},
         {"share", f.share},
         {"estimated_gain", f.estimated_gain},
         {"text", main_finding_text(f)},
         {"interval", finding_interval(f)},
         {"location", finding_location(f)},
         {"evidence", std::move(evidence)},
         {"remedy", f.remedy == analysis::Remedy::none ? json(nullptr) : json(remedy_key(f.remedy))},
         {"sampled_cause", sampled_cause_json(f)},
         {"replayed_gain", f.replayed_gain ? json(*f.replayed_gain) : json(nullptr)},
         {"replay", f.replayed_gain ? json(f.replay) : json(nullptr)}});
  }
  return out;
}

}  // namespace parperf::report
