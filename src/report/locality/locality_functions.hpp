// How every renderer orders and names the functions of a locality result, so that the text, the
// JSON and the pictures list them alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report/locality/locality_result.hpp"

namespace parperf::report {

// The ids of report.functions, most word accesses first; ties by id, so that output is reproducible.
std::vector<std::uint32_t> functions_by_accesses(const locality::LocalityReport& report);

// The labels are for display (text and pictures): control characters in the names, which come from
// the program's debug information or a locality.json, are escaped (printable_text.hpp).

// The function's name, or "function #<id>" when it is unknown.
std::string function_label(const LocalityResult& result, std::uint32_t id);

// "<basename of file>:<line>", the basename alone without a line, "" when the file is unknown.
std::string function_location(const LocalityResult& result, std::uint32_t id);

}  // namespace parperf::report
