// How reports name interval kinds (parperf_kind values in the files).
#pragma once

#include <cstdint>
#include <string_view>

namespace parperf::report {

std::string_view kind_text(std::uint32_t kind);  // "parallel loop"
std::string_view kind_key(std::uint32_t kind);   // "parallel_loop", the JSON value

}  // namespace parperf::report
