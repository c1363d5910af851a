// The communication of a run matched by parts (graph_part.hpp), as each process of `parperf report
// --np K` matches it: each part reads only its own ranks' calls (communication_calls.hpp); a message
// is paired at its receiver's part, which is sent the sends to its ranks (the n-th send of a channel
// is its n-th receive, as in the whole run's matching); a collective instance is put together at a
// part chosen by its key, which is sent every member's call. Each part gets what touches its ranks,
// in the whole run's order: the messages one of whose calls is its ranks', the complete instances
// one of whose members is, its ranks' one-sided transfers and the puts into its ranks; and the run's
// counts of what was left unpaired.
#pragma once

#include <cstdint>

#include "analysis/trace/graph_part.hpp"
#include "analysis/trace/messages.hpp"
#include "analysis/trace/part_exchange.hpp"
#include "analysis/trace/trace_run.hpp"

namespace parperf::analysis {

Communication match_communication(const TraceRun& traces, const RankPartition& ranks, std::uint32_t part,
                                  PartExchange& exchange);

}  // namespace parperf::analysis
