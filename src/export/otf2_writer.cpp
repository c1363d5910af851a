#include "export/otf2_writer.hpp"

#include <fmt/format.h>
#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "export/otf2_calling_contexts.hpp"
#include "export/otf2_communicators.hpp"
#include "export/otf2_rma.hpp"
#include "export/otf2_vocabulary.hpp"
#include "export/timeline_samples.hpp"
#include "format/site_kinds.hpp"

namespace parperf::exports {

namespace {

constexpr const char* kArchiveName = "traces";

// OTF2 reports errors through a process-wide callback that prints them; ours keeps the last
// message instead, for the exception that names the archive.
thread_local std::string last_otf2_message;

[[gnu::format(printf, 6, 0)]] OTF2_ErrorCode keep_message(void*, const char*, uint64_t, const char*,
                                                          OTF2_ErrorCode code, const char* format,
                                                          va_list arguments) {
  char text[512] = "";
  if (format) std::vsnprintf(text, sizeof text, format, arguments);
  last_otf2_message = text;
  return code;
}

OTF2_FlushType flush_always(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }

// The calls that carry a message (docs/format.md, the event trace's operations): a send leaves at
// the call's start (MPI_Isend too), a receive arrives at the end of the call that completed it (the
// MPI_Recv, or the Wait/Test that completed an MPI_Irecv, which names the sender).
bool sends(std::uint32_t kind) {
  using format::SiteKind;
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_send) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_sendrecv) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_isend);
}
bool receives(std::uint32_t kind) {
  using format::SiteKind;
  return kind == static_cast<std::uint32_t>(SiteKind::mpi_recv) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_sendrecv) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_wait) ||
         kind == static_cast<std::uint32_t>(SiteKind::mpi_test);
}

// No communicator and no partner: a call that carries no message.
constexpr std::pair<std::size_t, std::uint32_t> kNowhere{0, OTF2_UNDEFINED_UINT32};

}  // namespace

struct Otf2Writer::Archive {
  struct Location {
    OTF2_LocationRef ref = 0;
    OTF2_EvtWriter* writer = nullptr;
    std::uint64_t events = 0;
    std::int64_t rank = 0;
    std::uint32_t thread = 0;
    std::size_t group = 0;  // the rank's index
    std::uint64_t last_time = 0;
    // The thread's call-path samples, written among its events in time order from next_sample on.
    const analysis::ThreadTraceSamples* samples = nullptr;
    std::size_t next_sample = 0;
    OTF2_CallingContextRef last_context = OTF2_UNDEFINED_CALLING_CONTEXT;
    OTF2_InterruptGeneratorRef generator = OTF2_UNDEFINED_INTERRUPT_GENERATOR;
    bool in_program = false;  // its program region entered (before its first record), not yet left
    Otf2RmaLocation rma;
  };
  struct Region {
    OTF2_StringRef name, file;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    std::uint32_t line;
  };

  const TimelineNames& names;
  std::filesystem::path directory;
  OTF2_Archive* archive = nullptr;
  std::uint64_t last_timestamp = 0;
  std::map<std::pair<std::int64_t, std::uint32_t>, Location> locations;
  std::unordered_map<std::string, OTF2_StringRef> strings;
  std::vector<const std::string*> string_order;
  std::map<std::tuple<std::string, std::uint32_t, std::string, std::int64_t>, OTF2_RegionRef> region_ids;
  std::vector<Region> regions;
  std::unordered_map<const SiteInfo*, OTF2_RegionRef> region_of_site;
  Otf2Communicators comms;
  std::size_t held_leaves = 0;  // locations whose post or start holds its Leave back (Otf2RmaLocation)
  std::optional<TimelineSamples> samples;
  Otf2CallingContexts contexts;

  Archive(const TimelineNames& n, std::filesystem::path dir)
      : names(n), directory(std::move(dir)), comms(n) {}

  void check(OTF2_ErrorCode code, std::string_view what) {
    if (code == OTF2_SUCCESS) return;
    const std::string detail = last_otf2_message.empty() ? "" : " (" + last_otf2_message + ")";
    last_otf2_message.clear();
    throw std::runtime_error(fmt::format("{}: cannot {} the OTF2 archive: {}{}", directory.string(), what,
                                         OTF2_Error_GetDescription(code), detail));
  }

  OTF2_StringRef string(std::string_view text) {
    const auto [it, added] =
        strings.try_emplace(std::string(text), static_cast<OTF2_StringRef>(strings.size()));
    if (added) string_order.push_back(&it->first);
    return it->second;
  }

  // A site's region: looked up by the site's address first (TimelineNames keeps each SiteInfo in
  // place), then by what it says, so that two ranks' sites alike share one region.
  OTF2_RegionRef region(const SiteInfo& site) {
    if (const auto known = region_of_site.find(&site); known != region_of_site.end()) return known->second;
    const OTF2_RegionRef ref = region_named(site);
    region_of_site.emplace(&site, ref);
    return ref;
  }
  OTF2_RegionRef region_named(const SiteInfo& site) {
    auto key = std::make_tuple(site.name, site.kind, site.file, site.line);
    const auto [it, added] =
        region_ids.try_emplace(std::move(key), static_cast<OTF2_RegionRef>(regions.size()));
    if (added)
      regions.push_back(Region{string(site.name), string(site.file), role_of(site.kind),
                               paradigm_of(site.kind),
                               static_cast<std::uint32_t>(std::max<std::int64_t>(0, site.line))});
    return it->second;
  }

  Location& location(std::int64_t rank, std::uint32_t thread) {
    auto [it, added] = locations.try_emplace({rank, thread});
    if (added) {
      it->second.ref = locations.size() - 1;
      it->second.rank = rank;
      it->second.thread = thread;
      it->second.group = comms.rank_index(rank);
      it->second.writer = OTF2_Archive_GetEvtWriter(archive, it->second.ref);
      if (!it->second.writer) check(OTF2_ERROR_MEM_ALLOC_FAILED, "write");
    }
    return it->second;
  }

  // The region of the rank's program, the root of its intervals as of its sampled stacks: the site
  // of kind `program`, else one named "program".
  OTF2_RegionRef program_region(std::int64_t rank) {
    if (const RankInfo* info = names.find_rank(rank); info && info->profile)
      for (const format::Site& s : info->profile->sites)
        if (s.kind == static_cast<std::uint32_t>(format::SiteKind::program))
          return region(names.site(rank, s.id));
    static const SiteInfo kProgram{"program", static_cast<std::uint32_t>(format::SiteKind::program), "", 0,
                                   ""};
    return region(kProgram);
  }

  // Every location's records lie inside its program's Enter and Leave, as a tracer that instruments
  // main writes them: entered before the location's first record (a sample may come before its first
  // event), left after its last.
  void enter_program(Location& at, std::uint64_t time) {
    if (at.in_program) return;
    if (at.samples && at.next_sample < at.samples->samples.size())
      time = std::min(time, samples->timestamp(at.samples->samples[at.next_sample]));
    check(OTF2_EvtWriter_Enter(at.writer, nullptr, time, program_region(at.rank)), "write");
    ++at.events;
    at.in_program = true;
    at.last_time = time;
  }
  void leave_program(Location& at) {
    if (!at.in_program) return;
    check(OTF2_EvtWriter_Leave(at.writer, nullptr, at.last_time, program_region(at.rank)), "write");
    ++at.events;
    at.in_program = false;
  }

  // The location's samples up to `time` (all of them when `time` is the largest), each of weight w
  // written w times, so that a profile of the archive counts what `parperf report --functions` counts.
  void samples_until(Location& at, std::uint64_t time) {
    if (!at.samples) return;
    const std::vector<analysis::TraceSampleEntry>& list = at.samples->samples;
    for (; at.next_sample < list.size(); ++at.next_sample) {
      const analysis::TraceSampleEntry& s = list[at.next_sample];
      const std::uint64_t sample_time = samples->timestamp(s);
      if (sample_time > time) return;
      const OTF2_TimeStamp t = std::max(at.last_time, sample_time);  // a location's times never go back
      const OTF2_CallingContextRef context = contexts.context(
          samples->samples, s.stack, [&](std::uint32_t site) { return region(names.site(at.rank, site)); });
      for (std::uint32_t copy = 0; copy < s.weight; ++copy) {
        check(OTF2_EvtWriter_CallingContextSample(at.writer, nullptr, t, context,
                                                  contexts.unwind_distance(at.last_context, context),
                                                  at.generator),
              "write");
        at.last_context = context;
        ++at.events;
      }
      at.last_time = t;
      last_timestamp = std::max(last_timestamp, t);
    }
  }

  // A sampled function's region: the region of a site with its name, when there is one (an annotated
  // function, an MPI call's wrapper), else a region of its own.
  OTF2_RegionRef function_region(const Otf2CallingContexts::Function& f) {
    const OTF2_StringRef name = string(f.name);
    for (std::size_t i = 0; i < regions.size(); ++i)
      if (regions[i].name == name && regions[i].paradigm != OTF2_PARADIGM_SAMPLING)
        return static_cast<OTF2_RegionRef>(i);
    regions.push_back(Region{name, string(f.file), OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_SAMPLING, 0});
    return static_cast<OTF2_RegionRef>(regions.size() - 1);
  }

  // The communicator of an operation, and its partner's rank in it (OTF2_UNDEFINED_UINT32 for no
  // member of it).
  std::pair<std::size_t, std::uint32_t> where(std::int64_t rank, const format::TraceEvent& e) const {
    const std::size_t comm = comms.mpi_communicator(rank, e.communicator);
    return {comm, comms.rank_in(comm, e.partner)};
  }

  Otf2Records records(Location& at) { return Otf2Records{at.writer, &at.events}; }
  // The post's or start's Leave the location held back, written before anything else of it.
  void leave_held(Location& at) {
    if (!at.rma.holds_leave()) return;
    Otf2Records out = records(at);
    at.rma.leave_now(out, comms);
    --held_leaves;
    check(out.status, "write");
  }

  void write_definitions();
};

Otf2Writer::Otf2Writer(const std::filesystem::path& directory, const TimelineNames& names)
    : archive_(std::make_unique<Archive>(names, directory)) {
  Archive& a = *archive_;
  OTF2_Error_RegisterCallback(keep_message, nullptr);
  // OTF2 refuses to write over any file of an archive, in words that do not say which: name it.
  for (const std::string& file :
       {std::string(kArchiveName) + ".otf2", std::string(kArchiveName) + ".def", std::string(kArchiveName)})
    if (std::filesystem::exists(directory / file))
      throw std::runtime_error(
          fmt::format("{}: already holds an OTF2 archive ({}): remove it or choose another "
                      "directory",
                      directory.string(), file));
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    throw std::runtime_error(fmt::format("{}: cannot create: {}", directory.string(), error.message()));

  a.archive = OTF2_Archive_Open(directory.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, 1024 * 1024,
                                4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!a.archive) a.check(OTF2_ERROR_FILE_CAN_NOT_OPEN, "create");
  static const OTF2_FlushCallbacks kFlush = {flush_always, nullptr};  // no BufferFlush records
  a.check(OTF2_Archive_SetFlushCallbacks(a.archive, &kFlush, nullptr), "set up");
  a.check(OTF2_Archive_SetSerialCollectiveCallbacks(a.archive), "set up");
  a.check(OTF2_Archive_SetCreator(a.archive, "parperf export"), "set up");
  a.check(OTF2_Archive_OpenEvtFiles(a.archive), "open the event files of");
  // Every thread a location from the start: the MPI ranks' locations are defined even when a
  // thread writes no event.
  for (const RankInfo& rank : names.ranks())
    for (const ThreadInfo& thread : rank.threads) a.location(rank.rank, thread.index);
}

Otf2Writer::~Otf2Writer() {
  if (archive_ && archive_->archive) OTF2_Archive_Close(archive_->archive);
}

void Otf2Writer::item(const TimelineItem& item) {
  if (item.lane != 0) return;  // user events' lanes: see the header's limits
  const bool slice = item.kind == ItemKind::slice_begin || item.kind == ItemKind::slice_end;
  if (!slice || item.category == ItemCategory::user_event) return;
  Archive& a = *archive_;
  static const SiteInfo kWriterWait{"trace writer wait", 0, "", 0, ""};
  const SiteInfo& site = item.site ? *item.site : kWriterWait;
  Archive::Location& at = a.location(item.rank, item.thread);
  a.leave_held(at);
  const OTF2_TimeStamp time = item.timestamp;
  a.enter_program(at, time);
  a.samples_until(at, time);  // those at the event's time too: taken before it was recorded
  at.last_time = time;
  a.last_timestamp = std::max(a.last_timestamp, time);
  const OTF2_RegionRef region = a.region(site);
  const bool message = item.category == ItemCategory::operation && item.event && item.event->partner >= 0;
  const bool collective =
      item.category == ItemCategory::operation && format::is_mpi_collective_kind(site.kind);
  const RmaCall rma =
      item.category == ItemCategory::operation && item.event ? rma_call(site.kind, site.name) : RmaCall{};
  Otf2Records out = a.records(at);
  if (item.kind == ItemKind::slice_begin) {
    a.check(OTF2_EvtWriter_Enter(at.writer, nullptr, time, region), "write");
    ++at.events;
    if (const auto [comm, partner] = message && sends(site.kind) ? a.where(item.rank, *item.event) : kNowhere;
        partner != OTF2_UNDEFINED_UINT32) {
      a.check(OTF2_EvtWriter_MpiSend(at.writer, nullptr, time, partner, static_cast<OTF2_CommRef>(comm),
                                     static_cast<std::uint32_t>(item.event->match), item.event->bytes),
              "write");
      ++at.events;
    }
    if (collective) {
      a.check(OTF2_EvtWriter_MpiCollectiveBegin(at.writer, nullptr, time), "write");
      ++at.events;
    }
    if (rma.action != RmaAction::none) at.rma.begin(out, a.comms, item.rank, rma, *item.event, time);
    a.check(out.status, "write");
    return;
  }
  if (const auto [comm, partner] =
          message && receives(site.kind) ? a.where(item.rank, *item.event) : kNowhere;
      partner != OTF2_UNDEFINED_UINT32) {
    a.check(OTF2_EvtWriter_MpiRecv(at.writer, nullptr, time, partner, static_cast<OTF2_CommRef>(comm),
                                   static_cast<std::uint32_t>(item.event->match), item.event->bytes),
            "write");
    ++at.events;
  }
  if (collective) {
    // A collective's partner is its root (-1 for a collective without one).
    const auto [comm, root] = a.where(item.rank, *item.event);
    const OTF2_CollectiveOp op = collective_of(site.name, site.kind);
    const CollectiveSizes sizes = collective_sizes(op, item.event->bytes, item.event->partner == item.rank,
                                                   a.comms[comm].members.size());
    a.check(OTF2_EvtWriter_MpiCollectiveEnd(at.writer, nullptr, time, op, static_cast<OTF2_CommRef>(comm),
                                            item.event->partner >= 0 ? root : OTF2_UNDEFINED_UINT32,
                                            sizes.sent, sizes.received),
            "write");
    ++at.events;
  }
  const bool leaves_now =
      rma.action == RmaAction::none || at.rma.end(out, a.comms, item.rank, rma, *item.event, time, region);
  a.check(out.status, "write");
  if (!leaves_now) {
    ++a.held_leaves;  // until the call's further group members have come (Otf2RmaLocation)
    return;
  }
  a.check(OTF2_EvtWriter_Leave(at.writer, nullptr, time, region), "write");
  ++at.events;
}

void Otf2Writer::event(const analysis::TimelineEvent& e) {
  Archive& a = *archive_;
  // A further member of a post's or start's group comes after the call, at its end.
  if (e.event.kind == format::TraceEventKind::operation && e.event.match == format::kWindowGroupMember &&
      format::is_window_group_member(a.names.site(e.rank, e.event.site).kind, e.event.match)) {
    a.location(e.rank, e.thread).rma.member(e.event.partner);
    return;
  }
  if (a.held_leaves == 0) return;
  a.leave_held(a.location(e.rank, e.thread));  // anything else of the thread comes after the call
}

void Otf2Writer::samples_ahead(const TimelineSamples& samples) {
  Archive& a = *archive_;
  a.samples.emplace(samples);
  for (const analysis::ThreadTraceSamples& thread : samples.samples.threads) {
    Archive::Location& at = a.location(thread.rank, thread.thread);
    at.samples = &thread;
    const RankInfo* rank = a.names.find_rank(thread.rank);
    if (rank && rank->profile && rank->profile->call_paths)
      at.generator =
          a.contexts.generator(rank->profile->call_paths->clock, rank->profile->call_paths->period_ns);
  }
}

void Otf2Writer::Archive::write_definitions() {
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!defs) check(OTF2_ERROR_MEM_ALLOC_FAILED, "write the definitions of");
  // The sampled functions' regions and the strings of the calling contexts, before any is written.
  contexts.prepare([&](const Otf2CallingContexts::Function& f) { return function_region(f); },
                   [&](std::string_view text) { return string(text); });
  // Strings the other definitions name, registered before the strings are written.
  const OTF2_StringRef machine = string("machine"), node_class = string("node"), empty = string("");
  std::map<std::string, OTF2_StringRef> hosts;
  for (const RankInfo& r : names.ranks()) hosts.emplace(r.hostname.empty() ? "localhost" : r.hostname, 0);
  for (auto& [host, ref] : hosts) ref = string(host);
  std::vector<OTF2_StringRef> rank_names;
  for (const RankInfo& r : names.ranks()) rank_names.push_back(string(fmt::format("rank {}", r.rank)));
  // Locations named by rank and thread, as Score-P names them by process and thread: a reader that
  // lists locations apart from their groups still tells them apart.
  std::map<std::pair<std::int64_t, std::uint32_t>, OTF2_StringRef> location_names;
  for (const auto& [key, l] : locations)
    location_names.emplace(key, string(fmt::format("rank {} thread {}", l.rank, l.thread)));
  comms.for_each_name([&](std::string_view name) { string(name); });

  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1'000'000'000, 0, last_timestamp + 1,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "write the definitions of");
  for (std::size_t i = 0; i < string_order.size(); ++i)
    check(OTF2_GlobalDefWriter_WriteString(defs, static_cast<OTF2_StringRef>(i), string_order[i]->c_str()),
          "write the definitions of");
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const Region& r = regions[i];
    check(OTF2_GlobalDefWriter_WriteRegion(defs, static_cast<OTF2_RegionRef>(i), r.name, r.name, empty,
                                           r.role, r.paradigm, OTF2_REGION_FLAG_NONE, r.file, r.line, r.line),
          "write the definitions of");
  }
  check(contexts.write(defs), "write the definitions of");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, machine, machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "write the definitions of");
  std::map<std::string, OTF2_SystemTreeNodeRef> nodes;
  for (const auto& [host, ref] : hosts) {
    const auto node = static_cast<OTF2_SystemTreeNodeRef>(nodes.size() + 1);
    nodes[host] = node;
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, node, ref, node_class, 0),
          "write the definitions of");
  }
  for (std::size_t i = 0; i < names.ranks().size(); ++i) {
    const RankInfo& r = names.ranks()[i];
    check(OTF2_GlobalDefWriter_WriteLocationGroup(
              defs, static_cast<OTF2_LocationGroupRef>(i), rank_names[i], OTF2_LOCATION_GROUP_TYPE_PROCESS,
              nodes.at(r.hostname.empty() ? "localhost" : r.hostname), OTF2_UNDEFINED_LOCATION_GROUP),
          "write the definitions of");
  }
  // Each rank's first thread stands for the rank in MPI's groups: their order is the ranks'.
  std::vector<std::uint64_t> rank_locations(names.ranks().size(), OTF2_UNDEFINED_LOCATION);
  for (const auto& [key, l] : locations) {
    check(
        OTF2_GlobalDefWriter_WriteLocation(defs, l.ref, location_names.at(key), OTF2_LOCATION_TYPE_CPU_THREAD,
                                           l.events, static_cast<OTF2_LocationGroupRef>(l.group)),
        "write the definitions of");
    if (rank_locations[l.group] == OTF2_UNDEFINED_LOCATION) rank_locations[l.group] = l.ref;
  }
  check(comms.write(defs, rank_locations, [&](std::string_view name) { return string(name); }),
        "write the definitions of");
}

void Otf2Writer::finish() {
  Archive& a = *archive_;
  for (auto& [key, l] : a.locations) {
    a.leave_held(l);
    if (l.samples && l.next_sample < l.samples->samples.size())
      a.enter_program(l, std::numeric_limits<std::uint64_t>::max());  // a thread with samples only
    a.samples_until(l, std::numeric_limits<std::uint64_t>::max());    // those after the thread's last event
    a.leave_program(l);
    a.check(OTF2_Archive_CloseEvtWriter(a.archive, l.writer), "close");
  }
  a.check(OTF2_Archive_CloseEvtFiles(a.archive), "close");
  // Local definitions: none (every reference is global), but a reader expects a file per location.
  a.check(OTF2_Archive_OpenDefFiles(a.archive), "write the definitions of");
  for (auto& [key, l] : a.locations) {
    OTF2_DefWriter* local = OTF2_Archive_GetDefWriter(a.archive, l.ref);
    if (!local) a.check(OTF2_ERROR_MEM_ALLOC_FAILED, "write the definitions of");
    a.check(OTF2_Archive_CloseDefWriter(a.archive, local), "write the definitions of");
  }
  a.check(OTF2_Archive_CloseDefFiles(a.archive), "write the definitions of");
  a.write_definitions();
  OTF2_Archive* archive = a.archive;
  a.archive = nullptr;
  a.check(OTF2_Archive_Close(archive), "close");
}

}  // namespace parperf::exports
