#include "export/perfetto_writer.hpp"

#include <fmt/format.h>

#include "analysis/whole_number.hpp"
#include "export/timeline_samples.hpp"

namespace parperf::exports {

namespace {

// Field numbers of protos/perfetto/trace/: trace_packet.proto, track_event/*.proto,
// interned_data/interned_data.proto.
namespace trace {
constexpr std::uint32_t kPacket = 1;
}
namespace packet {
constexpr std::uint32_t kTimestamp = 8, kTrustedPacketSequenceId = 10, kTrackEvent = 11, kInternedData = 12,
                        kSequenceFlags = 13, kTrackDescriptor = 60, kPerfSample = 66;
constexpr std::uint64_t kIncrementalStateCleared = 1, kNeedsIncrementalState = 2;
}  // namespace packet
namespace track_descriptor {
constexpr std::uint32_t kUuid = 1, kName = 2, kProcess = 3, kThread = 4, kParentUuid = 5, kCounter = 8;
}
namespace process_descriptor {
constexpr std::uint32_t kPid = 1, kProcessName = 6;
}
namespace thread_descriptor {
constexpr std::uint32_t kPid = 1, kTid = 2, kThreadName = 5;
}
namespace counter_descriptor {
constexpr std::uint32_t kUnit = 3;
constexpr std::uint64_t kUnitTimeNs = 1;
}  // namespace counter_descriptor
namespace track_event {
constexpr std::uint32_t kCategoryIids = 3, kDebugAnnotations = 4, kType = 9, kNameIid = 10, kTrackUuid = 11,
                        kCounterValue = 30, kSourceLocationIid = 34, kDoubleCounterValue = 44, kFlowIds = 47,
                        kTerminatingFlowIds = 48;
constexpr std::uint64_t kSliceBegin = 1, kSliceEnd = 2, kInstant = 3, kCounter = 4;
}  // namespace track_event
namespace interned {
constexpr std::uint32_t kEventCategories = 1, kEventNames = 2, kDebugAnnotationNames = 3,
                        kSourceLocations = 4;
constexpr std::uint32_t kIid = 1, kName = 2;  // EventCategory, EventName, DebugAnnotationName
constexpr std::uint32_t kFileName = 2, kFunctionName = 3, kLineNumber = 4;  // SourceLocation
}  // namespace interned
namespace perf_sample {  // profiling/profile_packet.proto
constexpr std::uint32_t kPid = 2, kTid = 3, kCallstackIid = 4, kCpuMode = 5;
constexpr std::uint64_t kModeUser = 2;  // Profiling.CpuMode: the frame-pointer walk sees user code only
}  // namespace perf_sample
namespace annotation {
constexpr std::uint32_t kNameIid = 1, kIntValue = 4, kStringValue = 6;
}

constexpr std::uint32_t kSequence = 1;  // the one packet sequence of the file

// Perfetto knows processes and threads by pid and tid: ranks become pids 1, 2, ... (pid 0 is the
// kernel's), threads get tids of their own, unique in the file.
std::int32_t pid_of(std::int64_t rank) { return static_cast<std::int32_t>(rank + 1); }

}  // namespace

PerfettoWriter::PerfettoWriter(const std::filesystem::path& path, const TimelineNames& names)
    : names_(names), file_(path) {
  for (const RankInfo& rank : names_.ranks())
    for (const ThreadInfo& thread : rank.threads) thread_track(rank.rank, thread.index);
}

void PerfettoWriter::write_packet(ProtoMessage& packet, bool uses_interned_data) {
  packet.uint(packet::kTrustedPacketSequenceId, kSequence);
  // The first packet starts the sequence's interning tables; the events after it rely on them.
  if (first_packet_)
    packet.uint(packet::kSequenceFlags, packet::kIncrementalStateCleared);
  else if (uses_interned_data)
    packet.uint(packet::kSequenceFlags, packet::kNeedsIncrementalState);
  first_packet_ = false;
  framed_.clear();
  framed_.message(trace::kPacket, packet);
  file_.write(framed_.bytes());
  packet.clear();
}

void PerfettoWriter::describe(const ProtoMessage& descriptor) {
  packet_.clear();
  packet_.message(packet::kTrackDescriptor, descriptor);
  write_packet(packet_, false);
}

std::uint64_t PerfettoWriter::process_track(std::int64_t rank) {
  if (const auto it = processes_.find(rank); it != processes_.end()) return it->second;
  const std::uint64_t uuid = next_uuid_++;
  processes_[rank] = uuid;
  const RankInfo* traced = names_.find_rank(rank);
  const std::string label = traced ? traced->label : fmt::format("rank {}", rank);
  inner_.clear();
  inner_.sint(process_descriptor::kPid, pid_of(rank));
  inner_.text(process_descriptor::kProcessName, label);
  descriptor_.clear();
  descriptor_.uint(track_descriptor::kUuid, uuid);
  descriptor_.message(track_descriptor::kProcess, inner_);
  describe(descriptor_);
  return uuid;
}

std::uint64_t PerfettoWriter::thread_track(std::int64_t rank, std::uint32_t thread) {
  const std::uint64_t key = (static_cast<std::uint64_t>(rank) << 32) | thread;
  if (const auto it = threads_.find(key); it != threads_.end()) return it->second;
  const std::uint64_t parent = process_track(rank);
  const std::uint64_t uuid = next_uuid_++;
  threads_[key] = uuid;
  inner_.clear();
  inner_.sint(thread_descriptor::kPid, pid_of(rank));
  // Tids only need to be unique in the file; Perfetto takes a tid equal to a pid for that
  // process's main thread, so they start past the pids.
  const auto tid = static_cast<std::int64_t>(1'000'000 + threads_.size());
  tids_[key] = tid;
  inner_.sint(thread_descriptor::kTid, tid);
  inner_.text(thread_descriptor::kThreadName, fmt::format("thread {}", thread));
  descriptor_.clear();
  descriptor_.uint(track_descriptor::kUuid, uuid);
  descriptor_.uint(track_descriptor::kParentUuid, parent);
  descriptor_.message(track_descriptor::kThread, inner_);
  describe(descriptor_);
  return uuid;
}

std::uint64_t PerfettoWriter::lane_track(const TimelineItem& item) {
  const std::uint64_t parent = thread_track(item.rank, item.thread);
  const std::string key = fmt::format("{}/{}/{}", item.rank, item.thread, item.lane);
  if (const auto it = lanes_.find(key); it != lanes_.end()) return it->second;
  const std::uint64_t uuid = next_uuid_++;
  lanes_[key] = uuid;
  descriptor_.clear();
  descriptor_.uint(track_descriptor::kUuid, uuid);
  descriptor_.uint(track_descriptor::kParentUuid, parent);
  descriptor_.text(track_descriptor::kName, fmt::format("thread {}: {}", item.thread, item.name));
  describe(descriptor_);
  return uuid;
}

std::uint64_t PerfettoWriter::counter_track(std::int64_t rank) {
  if (const auto it = counters_.find(rank); it != counters_.end()) return it->second;
  const std::uint64_t parent = process_track(rank);
  const std::uint64_t uuid = next_uuid_++;
  counters_[rank] = uuid;
  inner_.clear();
  inner_.uint(counter_descriptor::kUnit, counter_descriptor::kUnitTimeNs);
  descriptor_.clear();
  descriptor_.uint(track_descriptor::kUuid, uuid);
  descriptor_.uint(track_descriptor::kParentUuid, parent);
  descriptor_.text(track_descriptor::kName, "lost time");
  descriptor_.message(track_descriptor::kCounter, inner_);
  describe(descriptor_);
  return uuid;
}

std::uint64_t PerfettoWriter::intern(InternIndex& index, std::uint32_t field, std::string_view text) {
  if (const auto it = index.find(text); it != index.end()) return it->second;
  const std::uint64_t iid = index.size() + 1;  // iid 0 is "not set"
  index.emplace(std::string(text), iid);
  entry_.clear();
  entry_.uint(interned::kIid, iid);
  entry_.text(interned::kName, text);
  interned_.message(field, entry_);
  return iid;
}

std::uint64_t PerfettoWriter::source_location(const SiteInfo& site) {
  if (const auto it = source_locations_.find(&site); it != source_locations_.end()) return it->second;
  const std::uint64_t iid = source_locations_.size() + 1;
  source_locations_.emplace(&site, iid);
  entry_.clear();
  entry_.uint(interned::kIid, iid);
  entry_.text(interned::kFileName, site.file);
  entry_.text(interned::kFunctionName, site.name);
  if (site.line > 0) entry_.uint(interned::kLineNumber, static_cast<std::uint64_t>(site.line));
  interned_.message(interned::kSourceLocations, entry_);
  return iid;
}

void PerfettoWriter::item(const TimelineItem& item) {
  using namespace track_event;
  // Tracks first: describing one writes a packet of its own.
  const std::uint64_t track = item.kind == ItemKind::counter ? counter_track(item.rank)
                              : item.lane != 0               ? lane_track(item)
                                                             : thread_track(item.rank, item.thread);
  event_.clear();
  interned_.clear();
  switch (item.kind) {
    case ItemKind::slice_begin:
    case ItemKind::instant:
    case ItemKind::flow_start:
    case ItemKind::flow_end:
      event_.uint(kType, item.kind == ItemKind::slice_begin ? kSliceBegin : kInstant);
      event_.uint(kCategoryIids,
                  intern(categories_, interned::kEventCategories, category_name(item.category)));
      event_.uint(kNameIid, intern(event_names_, interned::kEventNames, item.name));
      break;
    case ItemKind::slice_end:
      event_.uint(kType, kSliceEnd);
      break;
    case ItemKind::counter:
      event_.uint(kType, kCounter);
      break;
  }
  event_.uint(kTrackUuid, track);
  if (item.kind == ItemKind::counter) {
    // A whole number as an integer, anything else as a double.
    if (const auto whole = analysis::whole_number(item.value))
      event_.sint(kCounterValue, *whole);
    else
      event_.real(kDoubleCounterValue, item.value);
  }
  if (item.kind == ItemKind::flow_start) event_.fixed64(kFlowIds, item.flow);
  if (item.kind == ItemKind::flow_end) event_.fixed64(kTerminatingFlowIds, item.flow);
  const bool located = item.site && !item.site->file.empty() &&
                       (item.kind == ItemKind::slice_begin || item.kind == ItemKind::instant);
  if (located) event_.uint(kSourceLocationIid, source_location(*item.site));
  for_each_argument(item, [&](const Argument& a) {
    if (located && a.name == "source") return;  // said by the interned source location
    annotation_.clear();
    annotation_.uint(annotation::kNameIid,
                     intern(annotation_names_, interned::kDebugAnnotationNames, a.name));
    if (a.is_text)
      annotation_.text(annotation::kStringValue, a.text);
    else
      annotation_.sint(annotation::kIntValue, a.number);
    event_.message(kDebugAnnotations, annotation_);
  });
  packet_.clear();
  packet_.uint(packet::kTimestamp, item.timestamp);
  packet_.message(packet::kTrackEvent, event_);
  if (!interned_.empty()) packet_.message(packet::kInternedData, interned_);
  write_packet(packet_, true);
}

void PerfettoWriter::samples(const TimelineSamples& timeline) {
  for (const analysis::ThreadTraceSamples& thread : timeline.samples.threads) {
    thread_track(thread.rank, thread.thread);  // described before its samples
    const std::int64_t tid = tids_.at((static_cast<std::uint64_t>(thread.rank) << 32) | thread.thread);
    for (const analysis::TraceSampleEntry& s : thread.samples) {
      for (std::uint32_t copy = 0; copy < s.weight; ++copy) {
        interned_.clear();
        const std::uint64_t callstack = callstacks_.callstack(timeline.samples, s.stack, interned_);
        sample_.clear();
        sample_.sint(perf_sample::kPid, pid_of(thread.rank));
        sample_.sint(perf_sample::kTid, tid);
        sample_.uint(perf_sample::kCallstackIid, callstack);
        sample_.uint(perf_sample::kCpuMode, perf_sample::kModeUser);
        packet_.clear();
        packet_.uint(packet::kTimestamp, timeline.timestamp(s));
        packet_.message(packet::kPerfSample, sample_);
        if (!interned_.empty()) packet_.message(packet::kInternedData, interned_);
        write_packet(packet_, true);
      }
    }
  }
}

void PerfettoWriter::finish() { file_.close(); }

}  // namespace parperf::exports
