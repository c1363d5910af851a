// The parameters of DESIGN.md section 6 (word size W, i_max, N) and of the SHARDS sampling: stored
// with every result, so defined with it (format/locality_result.hpp).
#pragma once

#include "format/locality_result.hpp"

namespace parperf::locality {

using format::LocalityOptions;

}  // namespace parperf::locality
