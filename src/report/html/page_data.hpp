// What the HTML report shows, as the page's JSON data (read by assets/report.js): the run, the
// findings, the interval tree as columns, per-processor figures, the SRC points, and whatever else
// the run directory had (wait states from a trace, a timeline, locality, a prediction).
//
// Size: a page must stay small enough to open at once for 10 000 intervals and 64 processors (under
// 3 MB). So the tree is stored column by column (no key repeated per interval), repeated strings
// (kinds, files, diagnoses) once in a string table, times to 4 significant digits, and the
// per-processor figures only for the intervals that cost most, up to a budget of processor rows;
// the page says when an interval's rows were left out and how to get them (parperf report --procs).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report_model.hpp"

namespace parperf::report::html {

// A picture drawn by another renderer (an SVG document), shown as an image: an image cannot run
// script, whatever names its text holds.
struct Picture {
  std::string title;
  std::string svg;
};

// A part of the run beyond its profiles, as its own renderers put it: the text section of the text
// report, shown as preformatted text, and its pictures.
struct PageSection {
  std::string text;
  std::vector<Picture> pictures;
};

// What the run directory has beyond its profiles (each empty when it has none).
struct PageExtras {
  // Why the run takes its time (dependency_sections.hpp): the POP factors, from the trace or the
  // profile, and for a traced run its critical path and the root causes of its waiting.
  std::optional<nlohmann::ordered_json> pop;
  std::optional<nlohmann::ordered_json> critical_path;
  std::optional<nlohmann::ordered_json> delay_costs;
  std::optional<PageSection> wait_states;          // wait_states_text of a traced run
  std::optional<PageSection> locality;             // locality_text and its maps
  std::optional<PageSection> prediction;           // prediction_text and the speedup plot, for a sweep's run
  std::optional<nlohmann::ordered_json> timeline;  // the traced run's slices (export/timeline_overview.hpp)
};

struct PageLimits {
  std::size_t processor_rows = 24'000;  // per-processor rows over all intervals
  std::size_t diagnoses = 1'000;        // intervals with their one-line diagnosis, those that lose most
  std::size_t src_points = 200;
  // Sampled call paths for the flame graphs, most samples first: per interval and over all.
  std::size_t flame_paths_per_interval = 2'000;
  std::size_t flame_paths = 20'000;
};

// {"page": "report", "run", "findings", "strings", "intervals": {columns}, "processors", "src_points",
//  "communication_classes", "samples" (null unless sampled), ...extras}; the layout is documented in
//  docs/report.md ("HTML").
nlohmann::ordered_json report_page_data(const Report& report, const PageExtras& extras = {},
                                        const PageLimits& limits = {});

// The whole page: html_page(report_page_data(...)).
std::string report_page(const Report& report, const PageExtras& extras = {}, const PageLimits& limits = {});

}  // namespace parperf::report::html
