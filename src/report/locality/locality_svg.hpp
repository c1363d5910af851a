// The pictures of `parperf locality`, as self-contained SVG documents (no script, no external
// reference; every name escaped). Each starts with "<svg" and ends with "</svg>\n".
#pragma once

#include <cstddef>
#include <string>

#include "format/locality_result.hpp"

namespace parperf::report {

// Address (y) over access index (x) of the scatter sample, loads and stores in two colours. The
// address axis is cut into bands at the large gaps between regions (address_bands.hpp); each band
// is labelled with its address range.
std::string scatter_svg(const format::LocalityResult& result);

// The program's reuse-distance histogram: one bar per log2 bin (fraction of word accesses, bin
// 2^k = distances in (2^(k-1), 2^k]) up to N or the last non-empty bin, then the cold accesses.
std::string reuse_histogram_svg(const format::LocalityResult& result);

// The unit square of spatial (x) and temporal (y) locality: one labelled point per function, the
// max_functions with the most word accesses (area growing with the share), and the program as a
// diamond.
std::string locality_square_svg(const format::LocalityResult& result, std::size_t max_functions = 20);

}  // namespace parperf::report
