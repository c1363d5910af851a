// How every renderer names the functions of a locality result (they order them alike with
// format::functions_by_accesses).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/locality_result.hpp"

namespace parperf::report {

// The labels are for display (text and pictures): control characters in the names, which come from
// the program's debug information or a locality.json, are escaped (printable_text.hpp).

// The function's name, or "function #<id>" when it is unknown.
std::string function_label(const format::LocalityResult& result, std::uint32_t id);

// "<basename of file>:<line>", the basename alone without a line, "" when the file is unknown.
std::string function_location(const format::LocalityResult& result, std::uint32_t id);

}  // namespace parperf::report
