// The machine-readable result of `parperf locality --json`, and reading it back (to re-render a
// saved result as text or pictures without capturing again).
//
// {"format": "parperf-locality", "version": 1, "source", "command_line", "dropped",
//  "options": {"word_bytes", "window", "max_stride", "log2_n", "sample_rate", "presampled_rate",
//              "effective_sample_rate"},
//  "program": {<scores>},
//  "functions": [{"id", "function", "file", "line", "module", <scores>}...]  most word accesses first,
//  "threads": [{"thread", <scores>}...]  by thread index,
//  "warnings": ["..."]}
// <scores> = "spatial_locality", "temporal_locality", "loads", "stores" (accesses), "load_words",
// "store_words", "word_accesses", "footprint_words", "cold", "stride_histogram" (the strides array
// as the engine keeps it: [same word, stride 1, ..., stride max_stride, longer or none]) and
// "reuse_histogram": [{"bin", "min_distance", "max_distance", "count"}] for the non-empty bins only.
// "presampled_rate" (the capturer's word sampling, 1 when it recorded everything) may be absent on
// reading. Unknown function fields are "" (line 0). The scatter sample and the engine-internal options
// (min_tree_capacity, scatter_points) are not stored; reading gives their defaults.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "report/locality/locality_result.hpp"

namespace parperf::report {

inline constexpr std::string_view kLocalityJsonFormat = "parperf-locality";
inline constexpr int kLocalityJsonVersion = 1;

// Keys in the order above (ordered_json), so that the output reads like the text report.
nlohmann::ordered_json locality_json(const LocalityResult& result);

// locality_json as indented text ending in a newline. Names come from the measured program and
// need not be valid UTF-8: invalid bytes become U+FFFD rather than failing the whole output.
std::string locality_json_text(const LocalityResult& result);

// The result locality_json wrote (without the scatter sample). Throws std::runtime_error
// "<name>: not a parperf locality result: <what>" for anything else: another format, another
// version, a missing key, a value of the wrong type or out of range.
LocalityResult locality_from_json(const nlohmann::json& input, std::string_view name);

}  // namespace parperf::report
