// The readable trace (`parperf trace`): each thread's own interval tree as it is in its profile,
// one block per (rank, thread), one line per interval, operation and user event, nested by
// indentation, in the manner of the DVM and ompP readable traces. Unlike the report it merges
// nothing and computes no characteristic: it shows what each thread recorded.
//
// A pure function of decoded profiles. How a site is named is left to a SiteDescriber
// (site_text.hpp); what is shown, to a TraceFilter (trace_filter.hpp).
#pragma once

#include <string>
#include <vector>

#include "format/profile.hpp"
#include "report/site_text.hpp"
#include "report/trace_filter.hpp"

namespace parperf::report {

// The blocks of the threads of `profile` that `filter` selects, by thread index, separated by a
// blank line; "" when it selects none.
std::string render_trace_listing(const format::Profile& profile, const TraceFilter& filter = {},
                                 const SiteDescriber& describe = describe_site);

// The same for every profile of a run, in the given order (load_run sorts them by rank).
std::string render_trace_listing(const std::vector<format::Profile>& profiles, const TraceFilter& filter = {},
                                 const SiteDescriber& describe = describe_site);

}  // namespace parperf::report
