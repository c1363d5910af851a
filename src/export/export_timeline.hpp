// `parperf export`'s engine: merges a run's event traces in corrected time (timeline_merge.hpp),
// turns the events into slices (timeline_slices.hpp) and hands each, as it comes, to every writer:
// one pass over the traces however many formats are written.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/trace/trace_run.hpp"
#include "analysis/trace/trace_samples.hpp"
#include "export/timeline_names.hpp"
#include "export/timeline_slices.hpp"

namespace parperf::exports {

struct ExportProgress {
  std::uint64_t events_done = 0;
  std::uint64_t events_total = 0;
};

// The event traces of `run`, as load_traces reads them; throws std::runtime_error ("DIR has no
// event trace: record one with parperf run --trace") when the run has none.
analysis::TraceRun load_exported_traces(const analysis::RunData& run);

// Every event of `traces` to every writer, then `samples` (when given; also before the first item, to
// the writers that merge them into their threads' events), then finish() on each. `progress`,
// when set, is called every `progress_every` events and once at the end. Returns the number of events
// exported. With `repair` (the trace analysis's clock repair), the events and the operations' ends are
// at their repaired times (the flows are the caller's: see repair_flows).
std::uint64_t export_timeline(const analysis::TraceRun& traces, const TimelineNames& names,
                              const std::vector<Flow>& flows, const std::vector<TimelineWriter*>& writers,
                              const std::function<void(const ExportProgress&)>& progress = {},
                              std::uint64_t progress_every = 1 << 18,
                              const analysis::TraceSamples* samples = nullptr,
                              const analysis::ClockRepair* repair = nullptr);

}  // namespace parperf::exports
