// How reports name site kinds: the words and JSON key of format/site_kinds.hpp, "unknown" for a
// kind this version does not know.
#pragma once

#include <cstdint>
#include <string_view>

namespace parperf::report {

std::string_view kind_text(std::uint32_t kind);  // "parallel loop"
std::string_view kind_key(std::uint32_t kind);   // "parallel_loop", the JSON value

}  // namespace parperf::report
