// The stable keys of the findings (analysis/findings.hpp) in the JSON report: each rule's key and
// each remedy's, as docs/diagnosis.md lists them. Keys are only ever added, never renamed.
#pragma once

#include <string_view>

#include "analysis/findings.hpp"

namespace parperf::report {

std::string_view rule_key(analysis::FindingKind kind);  // "unbalanced_barrier", "preemption", ...
std::string_view remedy_key(analysis::Remedy remedy);   // "dynamic_schedule", ...; "none"

}  // namespace parperf::report
