#include "report/html/page_data.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "report/findings_json.hpp"
#include "report/html/data_uri.hpp"
#include "report/html/html_page.hpp"
#include "report/interval_kind.hpp"
#include "report/json_report.hpp"
#include "report/mpi_json.hpp"
#include "report/sampled_functions.hpp"
#include "report/src_summary.hpp"

namespace parperf::report::html {
namespace {

using json = nlohmann::ordered_json;

// Four significant digits: 0.1 µs in a 1 ms interval, well below what a bar or a table shows,
// and a third of the characters of a double written in full.
json rounded(double value) {
  if (value == 0 || !std::isfinite(value)) return 0;
  return std::stod(fmt::format("{:.4g}", value));
}

// Strings that repeat (kinds, file names, diagnoses) stored once; columns hold their index.
class StringTable {
 public:
  std::size_t index(const std::string& text) {
    auto [it, inserted] = indices_.try_emplace(text, strings_.size());
    if (inserted) strings_.push_back(text);
    return it->second;
  }
  json release() { return std::move(strings_); }

 private:
  std::unordered_map<std::string, std::size_t> indices_;
  json strings_ = json::array();
};

// The intervals in depth-first order, each with its parent's position (−1 for a root).
struct FlatInterval {
  const ReportInterval* interval;
  std::int64_t parent;
};

void flatten(const std::vector<ReportInterval>& intervals, std::int64_t parent,
             std::vector<FlatInterval>& out) {
  for (const ReportInterval& interval : intervals) {
    const auto position = static_cast<std::int64_t>(out.size());
    out.push_back({&interval, parent});
    flatten(interval.children, position, out);
  }
}

// The intervals' positions, the costliest first (by `figure` of their characteristics).
std::vector<std::size_t> costliest_first(const std::vector<FlatInterval>& flat,
                                         double analysis::Characteristics::*figure) {
  std::vector<std::size_t> order(flat.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return flat[a].interval->characteristics.*figure > flat[b].interval->characteristics.*figure;
  });
  return order;
}

// The tree as columns: one array per figure, all of the same length.
json interval_columns(const std::vector<FlatInterval>& flat, std::size_t diagnoses, StringTable& strings) {
  // Each diagnosis names its own figures, so hardly two are the same text: only those of the
  // intervals that lose most are kept (−1 for the others, which the page says).
  std::vector<bool> diagnosed(flat.size(), false);
  for (std::size_t k : costliest_first(flat, &analysis::Characteristics::lost_time)) {
    if (diagnoses == 0) break;
    diagnosed[k] = true;
    --diagnoses;
  }
  std::size_t position = 0;
  const char* const kNames[] = {"parent",
                                "level",
                                "kind",
                                "name",
                                "file",
                                "line",
                                "end_line",
                                "count",
                                "open",
                                "processors",
                                "threads",
                                "execution",
                                "total",
                                "lost",
                                "efficiency",
                                "productive",
                                "insufficient",
                                "communication",
                                "idle",
                                "desync",
                                "waiting",
                                "imbalance",
                                "synchronization",
                                "variation",
                                "startup",
                                "os_cpu",
                                "diagnosis"};
  json columns = json::object();
  for (const char* name : kNames) columns[name] = json::array();
  auto push = [&](const char* name, json value) { columns[name].push_back(std::move(value)); };
  for (const FlatInterval& f : flat) {
    const ReportInterval& i = *f.interval;
    const analysis::Characteristics& c = i.characteristics;
    push("parent", f.parent);
    push("level", i.level);
    push("kind", strings.index(std::string(kind_text(i.identity.kind))));
    push("name", i.identity.name);
    push("file", strings.index(i.identity.file));
    push("line", i.identity.line);
    push("end_line", i.identity.end_line);
    push("count", i.count);
    push("open", i.open ? 1 : 0);
    push("processors", c.processors);
    push("threads", c.threads);
    push("execution", rounded(c.execution_time));
    push("total", rounded(c.total_time));
    push("lost", rounded(c.lost_time));
    push("efficiency", rounded(c.efficiency));
    push("productive", rounded(c.productive_time));
    push("insufficient", rounded(c.insufficient_parallelism));
    push("communication", rounded(c.communication));
    push("idle", rounded(c.idle_time));
    push("desync", rounded(c.desync));
    push("waiting", rounded(c.waiting));
    push("imbalance", rounded(c.load_imbalance));
    push("synchronization", rounded(c.synchronization));
    push("variation", rounded(c.time_variation));
    push("startup", rounded(c.startup + c.shutdown));
    push("os_cpu", rounded(c.os_cpu_user + c.os_cpu_sys));
    push("diagnosis", diagnosed[position++] ? json(strings.index(i.diagnosis)) : json(-1));
  }
  return columns;
}

// One interval's processors as columns: number, execution, productive and each kind of loss (the
// loss the analysis names no kind for is "other": OpenMP desync and waiting).
json processor_columns(const std::vector<analysis::ProcessorFigures>& rows) {
  using Figures = analysis::ProcessorFigures;
  static constexpr std::pair<const char*, double Figures::*> kFigures[] = {
      {"execution", &Figures::execution_time},
      {"productive", &Figures::productive_time},
      {"insufficient", &Figures::insufficient_parallelism},
      {"communication", &Figures::communication},
      {"idle", &Figures::idle_time}};
  json columns = {{"processor", json::array()}};
  for (const auto& [name, figure] : kFigures) columns[name] = json::array();
  columns["other"] = json::array();
  for (const Figures& f : rows) {
    columns["processor"].push_back(f.processor);
    for (const auto& [name, figure] : kFigures) columns[name].push_back(rounded(f.*figure));
    const double other = f.lost_time - f.insufficient_parallelism - f.communication - f.idle_time;
    columns["other"].push_back(rounded(std::max(0.0, other)));
  }
  return columns;
}

// Per-processor columns of the costliest intervals (by Total time) until the budget of rows is
// spent. An interval with processors and no columns was left out, which the page says.
json processor_data(const std::vector<FlatInterval>& flat, std::size_t budget) {
  json data = json::object();
  std::size_t spent = 0;
  for (std::size_t k : costliest_first(flat, &analysis::Characteristics::total_time)) {
    const auto& rows = flat[k].interval->per_processor;
    if (rows.empty() || spent + rows.size() > budget) continue;
    spent += rows.size();
    data[std::to_string(k)] = processor_columns(rows);
  }
  return data;
}

// The user events of the intervals that have any, by position (few intervals have events).
json event_data(const std::vector<FlatInterval>& flat) {
  json data = json::object();
  for (std::size_t k = 0; k < flat.size(); ++k) {
    if (flat[k].interval->events.empty()) continue;
    json events = json::array();
    for (const analysis::EventTotals& e : flat[k].interval->events) events.push_back(event_json(e));
    data[std::to_string(k)] = std::move(events);
  }
  return data;
}

json section_json(const PageSection& section) {
  json pictures = json::array();
  for (const Picture& p : section.pictures)
    pictures.push_back({{"title", p.title}, {"src", svg_data_uri(p.svg)}});
  return {{"text", section.text}, {"pictures", std::move(pictures)}};
}

// An interval's call paths for its flame graph: each path as the indices of its frames' names in
// `names` (outermost first) followed by its samples, most samples first, within the budgets;
// `left_out` counts the samples of the paths not kept.
json flame_data(const analysis::IntervalSamples& interval, StringTable& names, std::size_t& budget,
                std::size_t per_interval) {
  json paths = json::array();
  std::uint64_t left_out = 0;
  for (const analysis::SampledPath& path : interval.paths) {
    if (budget == 0 || paths.size() == per_interval) {
      left_out += path.samples;
      continue;
    }
    json row = json::array();
    for (const std::string& frame : path.frames) row.push_back(names.index(frame));
    row.push_back(path.samples);
    paths.push_back(std::move(row));
    --budget;
  }
  return {{"paths", std::move(paths)}, {"left_out", left_out}};
}

// The sampled functions (docs/report.md, "samples") of the intervals the page shows, each with its
// `node` (its position in the page's tree) and its `flame` (the call paths for the flame graph, their
// function names in `samples.frame_names`).
json samples_data(const Report& report, const std::vector<FlatInterval>& flat, const PageLimits& limits) {
  json samples = samples_json(report.samples, kSampledRows);
  if (samples.is_null()) return samples;
  std::unordered_map<std::size_t, std::size_t> node_of;
  for (std::size_t k = 0; k < flat.size(); ++k) node_of.emplace(flat[k].interval->tree_index, k);
  std::unordered_map<std::size_t, const analysis::IntervalSamples*> sampled_interval;
  for (const analysis::IntervalSamples& interval : report.samples.intervals)
    sampled_interval.emplace(interval.interval, &interval);
  StringTable names;
  std::size_t budget = limits.flame_paths;
  json shown = json::array();
  for (json& interval : samples["intervals"]) {
    const std::size_t index = interval["interval"].get<std::size_t>();
    const auto node = node_of.find(index);
    if (node == node_of.end()) continue;
    interval["node"] = node->second;
    interval.erase("paths");
    interval["flame"] =
        flame_data(*sampled_interval.at(index), names, budget, limits.flame_paths_per_interval);
    shown.push_back(std::move(interval));
  }
  samples["intervals"] = std::move(shown);
  samples["frame_names"] = names.release();
  return samples;
}

json run_facts(const Report& report) {
  json run = run_json(report.run);
  run["program_total_time"] = report.program_total_time;
  return run;
}

}  // namespace

json report_page_data(const Report& report, const PageExtras& extras, const PageLimits& limits) {
  std::vector<FlatInterval> flat;
  flatten(report.intervals, -1, flat);
  StringTable strings;
  json data = {{"page", "report"}, {"run", run_facts(report)}, {"findings", findings_json(report.findings)}};
  data["intervals"] = interval_columns(flat, limits.diagnoses, strings);
  data["processors"] = processor_data(flat, limits.processor_rows);
  data["events"] = event_data(flat);
  json points = json::array();
  for (const analysis::SrcPoint& p : report.src_points) {
    if (points.size() == limits.src_points) break;
    points.push_back(src_point_json(p, report.program_total_time));
  }
  data["src_points"] = std::move(points);
  data["src_point_count"] = report.src_points.size();
  data["communication_classes"] =
      report.intervals.empty() ? json::array()
                               : communication_classes_json(report.intervals.front().communication_classes);
  data["samples"] = samples_data(report, flat, limits);
  if (extras.pop) data["pop"] = *extras.pop;
  if (extras.critical_path) data["critical_path"] = *extras.critical_path;
  if (extras.delay_costs) data["delay_costs"] = *extras.delay_costs;
  if (extras.wait_states) data["wait_states"] = section_json(*extras.wait_states);
  if (extras.locality) data["locality"] = section_json(*extras.locality);
  if (extras.prediction) data["prediction"] = section_json(*extras.prediction);
  if (extras.timeline) data["timeline"] = *extras.timeline;
  data["strings"] = strings.release();
  return data;
}

std::string report_page(const Report& report, const PageExtras& extras, const PageLimits& limits) {
  return html_page(report_page_data(report, extras, limits), "parperf report");
}

}  // namespace parperf::report::html
