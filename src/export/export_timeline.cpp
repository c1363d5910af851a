#include "export/export_timeline.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "export/timeline_samples.hpp"

namespace parperf::exports {

analysis::TraceRun load_exported_traces(const analysis::RunData& run) {
  if (!analysis::has_traces(run.directory))
    throw std::runtime_error(
        fmt::format("{} has no event trace: record one with parperf run --trace", run.directory.string()));
  return analysis::load_traces(run);
}

std::uint64_t export_timeline(const analysis::TraceRun& traces, const TimelineNames& names,
                              const std::vector<Flow>& flows, const std::vector<TimelineWriter*>& writers,
                              const std::function<void(const ExportProgress&)>& progress,
                              std::uint64_t progress_every, const analysis::TraceSamples* samples,
                              const analysis::ClockRepair* repair) {
  ExportProgress done;
  for (const analysis::RankTrace& rank : traces.ranks)
    // From the block records: a trace read as an index has not decoded its events yet.
    for (const format::TraceBlock& block : rank.trace->blocks) done.events_total += block.header.event_count;
  SliceBuilder slices(
      names, traces.clocks, flows,
      [&](const TimelineItem& item) {
        for (TimelineWriter* w : writers) w->item(item);
      },
      repair);
  std::vector<std::unique_ptr<analysis::ThreadEvents>> streams = analysis::all_thread_streams(traces);
  const bool sampled = samples && !samples->threads.empty();
  bool started = false;
  // Once the first event fixes the timeline's origin, before any item: the samples' timestamps.
  auto samples_ahead = [&](double first_ns) {
    if (sampled)
      for (TimelineWriter* w : writers)
        w->samples_ahead(TimelineSamples{*samples, SliceBuilder::origin_for(first_ns)});
    started = true;
  };
  analysis::merge_timeline(
      streams, traces.clocks,
      [&](const analysis::TimelineEvent& e) {
        for (TimelineWriter* w : writers) w->event(e);
        if (!started) samples_ahead(e.time_ns);
        slices.add(e);
        ++done.events_done;
        if (progress && done.events_done % progress_every == 0) progress(done);
      },
      repair);
  if (!started) samples_ahead(0);
  slices.finish();
  if (sampled)
    for (TimelineWriter* w : writers) w->samples(TimelineSamples{*samples, slices.origin_ns()});
  for (TimelineWriter* w : writers) w->finish();
  if (progress) progress(done);
  return done.events_done;
}

}  // namespace parperf::exports
