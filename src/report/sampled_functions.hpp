// The sampled call paths as the user reads them: `parperf report --functions` (per interval, the top
// functions by self and inclusive samples with file:line, the top call paths and each processor's
// top function), `--folded` (one "frame;frame;... samples" line per distinct stack, the interval path
// first, for flamegraph.pl and speedscope) and the JSON report's `samples` part.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/call_path_profile.hpp"

namespace parperf::report {

std::string sampled_functions_text(const analysis::SampleProfile& samples, std::size_t top);

std::string folded_stacks_text(const analysis::SampleProfile& samples);

// docs/report.md, "samples": null when the run was not sampled.
nlohmann::ordered_json samples_json(const analysis::SampleProfile& samples, std::size_t top);

// How many functions and call paths per interval the text and the JSON show.
inline constexpr std::size_t kSampledRows = 10;

}  // namespace parperf::report
