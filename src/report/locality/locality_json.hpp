// The machine-readable result of `parperf locality --json` and of a saved result in `parperf report
// --json`: the result as locality.json stores it (format/locality_file.hpp, which documents every key
// and reads it back).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "format/locality_result.hpp"

namespace parperf::report {

// Keys in the order of format/locality_file.hpp (ordered_json), so that the output reads like the
// text report.
nlohmann::ordered_json locality_json(const format::LocalityResult& result);

// locality_json as indented text ending in a newline. Names come from the measured program and
// need not be valid UTF-8: invalid bytes become U+FFFD rather than failing the whole output.
std::string locality_json_text(const format::LocalityResult& result);

}  // namespace parperf::report
