// The sampled call paths as the user reads them: `parperf report --functions` (per interval, the top
// functions by self and inclusive samples with file:line, the top call paths, each processor's
// top function, and why processors wait there when a finding's samples say so), `--folded` (one
// "frame;frame;... samples" line per distinct stack, the interval path first, for flamegraph.pl and
// speedscope) and the JSON report's `samples` part.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/call_path_profile.hpp"
#include "analysis/findings.hpp"

namespace parperf::report {

// `findings`: the run's main findings; under each interval whose samples explain one (its sampled
// cause compares them), the explanation with the finding's number.
std::string sampled_functions_text(const analysis::SampleProfile& samples, std::size_t top,
                                   const std::vector<analysis::Finding>& findings = {});

std::string folded_stacks_text(const analysis::SampleProfile& samples);

// docs/report.md, "samples": null when the run was not sampled.
nlohmann::ordered_json samples_json(const analysis::SampleProfile& samples, std::size_t top);

// The functions of an interval that the text and the JSON show: the `top` with most self samples
// and the `top` with most inclusive ones (a caller whose callees share its time has no self samples
// but may hold most of the interval), in the interval's order; all when `top` is 0.
std::vector<const analysis::SampledFunction*> shown_functions(const analysis::IntervalSamples& interval,
                                                              std::size_t top);

// How many functions (by self and by inclusive samples) and call paths per interval the text and
// the JSON show.
inline constexpr std::size_t kSampledRows = 10;

}  // namespace parperf::report
