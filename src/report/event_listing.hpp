// The readable event trace (`parperf trace DIR` on a run recorded with --trace): every event of
// every selected thread in the order of corrected time (rank 0's clock), one line each, nested by
// indentation per thread:
//
//    0.012345  0:0  solve  value 3  src=heat.c(40)
//    0.012350  0:0    MPI send 'MPI_Send' 1.2 µs  to rank 1  64 B  tag 5  src=heat.c(52)
//    0.012900  0:0  end solve after 0.555 ms
//
// Streaming: lines go to `emit` as the merge produces them, so a long trace needs no memory for its
// listing. A pure rendering of the merged timeline (analysis/trace): it computes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/trace/trace_run.hpp"
#include "report/site_text.hpp"
#include "report/trace_filter.hpp"

namespace parperf::report {

struct EventListingOptions {
  TraceFilter filter;             // ranks, threads, events (operations, user events, "iteration"), intervals
  std::optional<double> from_ns;  // the time window, in corrected ns since rank 0's start
  std::optional<double> to_ns;
};

// Describes the sites of one rank's profile (the command symbolizes code addresses).
using DescriberFor = std::function<SiteDescriber(const format::Profile& profile)>;

// Emits the listing's lines (each ending in '\n'); returns how many events it showed.
std::uint64_t render_event_listing(const analysis::TraceRun& traces, const EventListingOptions& options,
                                   const DescriberFor& describer_for,
                                   const std::function<void(std::string_view)>& emit);

// What a reader of the listing must know about the trace: the traces' warnings (where a trace ends
// early, events lost, time the program waited for the trace writer) and the trace filter the run
// used (from run.json). One line each, "" when there is nothing to say.
std::string describe_trace_limits(const analysis::TraceRun& traces, const analysis::RunData& run);

// A time like "1.5", "1.5s", "200ms", "30us", "500ns" as nanoseconds; throws std::invalid_argument
// naming `option` when it is not one.
double parse_time_ns(std::string_view option, std::string_view text);

}  // namespace parperf::report
