// The names the OpenMP collector gives its sites in the profile ("parallel", "implicit barrier"):
// the site-kind table's (format/site_kinds.hpp).
#pragma once

#include "format/records.hpp"

namespace parperf::runtime::openmp {

// The name of a construct or operation site of `kind` (static storage); "operation" for a kind
// the collector does not create.
const char* site_name(format::SiteKind kind) noexcept;

}  // namespace parperf::runtime::openmp
