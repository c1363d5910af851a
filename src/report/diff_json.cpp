#include "report/diff_json.hpp"

#include <string>

#include "analysis/whole_number.hpp"
#include "report/diff_figures.hpp"
#include "report/interval_kind.hpp"
#include "report/json_optional.hpp"

namespace parperf::report {
namespace {

using analysis::ComparedFigure;
using analysis::IntervalChange;
using json = nlohmann::ordered_json;

// Processors and entries are counts: integers in JSON, as in `parperf report --json`. A count no
// 64-bit integer holds (a damaged profile's) stays the number it is: no cast to what it does not fit.
json figure_value(ComparedFigure figure, double value) {
  if (figure == ComparedFigure::processors || figure == ComparedFigure::entries)
    if (const auto count = analysis::whole_number(value)) return json(*count);
  return json(value);
}

json figures_json(const analysis::Characteristics& c) {
  json out = json::object();
  for (const ComparedFigure figure : analysis::kComparedFigures)
    out[std::string(compared_figure_key(figure))] = figure_value(figure, analysis::compared_value(c, figure));
  return out;
}

json optional_figures(const std::optional<analysis::Characteristics>& c) {
  return c ? figures_json(*c) : json(nullptr);
}

json delta_json(const IntervalChange& change) {
  json out = json::object();
  for (const ComparedFigure figure : analysis::kComparedFigures) {
    const std::optional<double> delta = change.delta(figure);
    out[std::string(compared_figure_key(figure))] = delta ? figure_value(figure, *delta) : json(nullptr);
  }
  return out;
}

json component_json(const analysis::ComponentChange& change) {
  return {{"component", compared_figure_key(change.component)}, {"delta", change.delta}};
}

std::string_view status_key(analysis::IntervalStatus status) {
  switch (status) {
    case analysis::IntervalStatus::matched:
      return "matched";
    case analysis::IntervalStatus::added:
      return "new";
    case analysis::IntervalStatus::vanished:
      return "vanished";
  }
  return "unknown";
}

// Execution time B / A − 1; null when A did not run the interval or it took no time there.
json relative_change(const IntervalChange& change) {
  if (!change.a || !change.b || change.a->execution_time <= 0) return nullptr;
  return change.b->execution_time / change.a->execution_time - 1;
}

json interval_json(const IntervalChange& change) {
  json names = json::array();
  json steps = json::array();
  for (const analysis::IntervalStep& step : change.path) {
    names.push_back(step.name);
    steps.push_back({{"kind", kind_key(step.kind)},
                     {"name", step.name},
                     {"file", step.file},
                     {"line", step.line},
                     {"value", step.value}});
  }
  const analysis::IntervalStep program{0, "program", "", 0, 0};
  const analysis::IntervalStep& step = change.step() ? *change.step() : program;
  return {{"path", std::move(names)},
          {"path_steps", std::move(steps)},
          {"level", change.level()},
          {"kind", kind_key(step.kind)},
          {"name", step.name},
          {"file", step.file},
          {"line", step.line},
          {"value", step.value},
          {"status", status_key(change.status)},
          {"a", optional_figures(change.a)},
          {"b", optional_figures(change.b)},
          {"delta", delta_json(change)},
          {"relative_change", relative_change(change)},
          {"impact", change.impact},
          {"impact_share", change.impact_share},
          {"largest_lost_change",
           change.largest_lost_change ? component_json(*change.largest_lost_change) : json(nullptr)}};
}

json run_json(const analysis::RunSummary& run) {
  json out = {{"directory", run.directory},
              {"command", run.command},
              {"unit", analysis::unit_name(run.unit)},
              {"processes", run.processes},
              {"threads", run.program.threads}};
  out.update(figures_json(run.program));
  return out;
}

json program_json(const analysis::ProgramChange& program) {
  json lost_changes = json::array();
  for (const analysis::ComponentChange& change : program.lost_changes)
    lost_changes.push_back(component_json(change));
  return {{"processors_differ", program.processors_differ},
          {"speedup", optional_value(program.speedup)},
          {"scaling_efficiency", optional_value(program.scaling_efficiency)},
          {"efficiency_change", program.efficiency_delta},
          {"lost_changes", std::move(lost_changes)}};
}

}  // namespace

json diff_json(const analysis::RunComparison& comparison) {
  json intervals = json::array();
  for (const IntervalChange& change : comparison.intervals) intervals.push_back(interval_json(change));
  return {{"parperf_diff", 1},
          {"a", run_json(comparison.a)},
          {"b", run_json(comparison.b)},
          {"program", program_json(comparison.program)},
          {"intervals", std::move(intervals)},
          {"warnings", comparison.warnings}};
}

}  // namespace parperf::report
