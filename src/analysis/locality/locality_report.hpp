// What the locality engine produces: histograms (sums of counts, so that threads and functions
// combine by addition) and the scores computed from them (locality_scores.hpp recomputes them). The
// engine's report is what locality.json stores, so it is defined with the stored result
// (format/locality_result.hpp, which also states the multi-threaded convention); the engine names
// its parts here.
#pragma once

#include "analysis/locality/locality_options.hpp"
#include "format/locality_result.hpp"

namespace parperf::locality {

using format::kReuseBins;
using format::LocalityHistograms;
using format::LocalityReport;
using format::LocalityScores;
using format::ScatterPoint;

}  // namespace parperf::locality
