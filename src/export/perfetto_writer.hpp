// Perfetto's native trace (protos/perfetto/trace/trace.proto), hand-encoded: a Trace is a sequence
// of TracePackets on one packet sequence. Each rank is a process track and each thread a thread
// track (TrackDescriptor with ProcessDescriptor / ThreadDescriptor), described before any event;
// a user event's lane is a child track of its thread's, and each rank's lost time a counter track,
// described when first used. Slices are TYPE_SLICE_BEGIN / TYPE_SLICE_END TrackEvents, instants
// TYPE_INSTANT, counters TYPE_COUNTER; names, categories and argument names are interned
// (InternedData, name_iid), so that each is written once, and so are the sites' source locations
// (source_location_iid: the UI shows file and line with the slice). Flow arrows are instants carrying
// flow_ids at the send and terminating_flow_ids at the receive.
//
// Call-path samples are PerfSample packets (TracePacket.perf_sample) naming their thread's pid and tid
// and an interned callstack (perfetto_callstacks.hpp). Why PerfSample rather than
// StreamingProfilePacket, the other sample Perfetto reads: a streaming packet finds its thread
// through a ThreadDescriptor of its packet sequence and counts time in microseconds from that
// descriptor's reference (deprecated, says its proto), so every thread would need a sequence of its
// own; a PerfSample carries its pid and tid and takes the packet's nanosecond timestamp, on the
// clock of the slices, on the one sequence of the file. The UI shows a thread's perf samples on a
// track of its own under the thread, and a flame graph of the samples selected. A sample that stands
// for several timer periods (its weight) is written that many times, so that the flame graph
// counts as `parperf report --functions` does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <unordered_map>

#include "export/output_file.hpp"
#include "export/perfetto_callstacks.hpp"
#include "export/protobuf_wire.hpp"
#include "export/timeline_slices.hpp"

namespace parperf::exports {

class PerfettoWriter final : public TimelineWriter {
 public:
  PerfettoWriter(const std::filesystem::path& path, const TimelineNames& names);
  void item(const TimelineItem& item) override;
  void samples(const TimelineSamples& samples) override;
  void finish() override;

 private:
  std::uint64_t thread_track(std::int64_t rank, std::uint32_t thread);
  std::uint64_t lane_track(const TimelineItem& item);
  std::uint64_t counter_track(std::int64_t rank);
  std::uint64_t process_track(std::int64_t rank);
  // The interning id of `text` in `index`; a new one is added to the packet's InternedData.
  // Looked up by string_view: interning an event's name allocates only the first time.
  struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  using InternIndex = std::unordered_map<std::string, std::uint64_t, TextHash, std::equal_to<>>;
  std::uint64_t intern(InternIndex& index, std::uint32_t field, std::string_view text);
  // A site's file and line as an interned SourceLocation (its function name: the site's name).
  std::uint64_t source_location(const SiteInfo& site);
  void describe(const ProtoMessage& descriptor);
  void write_packet(ProtoMessage& packet, bool uses_interned_data);

  const TimelineNames& names_;
  OutputFile file_;
  bool first_packet_ = true;
  std::uint64_t next_uuid_ = 1;
  std::unordered_map<std::int64_t, std::uint64_t> processes_, counters_;
  std::unordered_map<std::uint64_t, std::uint64_t> threads_;  // (rank << 32 | thread) -> uuid
  std::unordered_map<std::uint64_t, std::int64_t> tids_;      // (rank << 32 | thread) -> tid
  PerfettoCallstacks callstacks_;
  std::unordered_map<std::string, std::uint64_t> lanes_;  // "rank/thread/lane" -> uuid
  InternIndex event_names_, categories_, annotation_names_;
  std::unordered_map<const SiteInfo*, std::uint64_t> source_locations_;  // TimelineNames keeps sites in place
  // Scratch messages, reused so that writing an event does not allocate.
  ProtoMessage packet_, event_, interned_, entry_, annotation_, framed_, descriptor_, inner_, sample_;
};

}  // namespace parperf::exports
