// Profile decoding. Nothing read from the file is trusted before it is checked: every count and
// length against the bytes that remain, every section against its checksum, every reference
// (parent node, site, event) against what the file defines.
#include "format/profile_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <set>
#include <string>

#include "format/byte_reader.hpp"
#include "format/crc32c.hpp"
#include "format/records.hpp"
#include "format/regular_file.hpp"
#include "format/section_cursor.hpp"
#include "format/section_scan.hpp"

namespace parperf::format {
namespace {

// A count of threads a process started (those not measured, those of the model's libraries): starting
// one takes microseconds, so more than 2^40 would be over a hundred days of nothing else. A figure
// beyond it is a damaged file, not a run.
std::uint64_t thread_count(std::uint64_t count, const std::string& context) {
  constexpr std::uint64_t kMostThreads = std::uint64_t{1} << 40;
  if (count > kMostThreads)
    throw FormatError("corrupt: " + context + " counts " + std::to_string(count) +
                      " threads, more than a process can start");
  return count;
}

std::string section_name(std::uint32_t type) {
  switch (static_cast<SectionType>(type)) {
    case SectionType::process:
      return "process";
    case SectionType::sites:
      return "sites";
    case SectionType::events:
      return "events";
    case SectionType::thread:
      return "thread";
    case SectionType::mpi:
      return "mpi";
    case SectionType::limits:
      return "limits";
    case SectionType::probe_costs:
      return "probe costs";
    case SectionType::shmem:
      return "shmem";
    case SectionType::iterations:
      return "iterations";
    case SectionType::call_paths:
      return "call paths";
    case SectionType::setup_samples:
      return "setup samples";
    case SectionType::model_threads:
      return "model threads";
  }
  return "unknown type " + std::to_string(type);
}

ProcessInfo decode_process(ByteReader& in) {
  auto p = in.record<ProcessInfo>("process record");
  if (static_cast<std::uint32_t>(p.end_reason) > static_cast<std::uint32_t>(EndReason::global_exit))
    throw FormatError("corrupt: " + in.context() + ": unknown end reason " +
                      std::to_string(static_cast<std::uint32_t>(p.end_reason)));
  if (static_cast<std::uint32_t>(p.clock_source) > static_cast<std::uint32_t>(ClockSource::monotonic))
    throw FormatError("corrupt: " + in.context() + ": unknown clock source " +
                      std::to_string(static_cast<std::uint32_t>(p.clock_source)));
  if (p.world_size < 1 || p.rank < 0 || p.rank >= p.world_size)
    throw FormatError("corrupt: " + in.context() + ": rank " + std::to_string(p.rank) + " of a run of " +
                      std::to_string(p.world_size) + " processes");
  return p;
}

void decode_sites(ByteReader& in, Profile& profile) {
  while (in.remaining() > 0) {
    Site site;
    static_cast<SiteFields<std::string>&>(site) = in.record<SiteFields<std::string>>("site record");
    profile.sites.push_back(std::move(site));
  }
}

void decode_events(ByteReader& in, Profile& profile) {
  while (in.remaining() > 0) profile.events.push_back(in.record<Event>("event record"));
}

Node decode_node(ByteReader& in, std::size_t index) {
  Node n;
  static_cast<NodeRecord&>(n) = in.record<NodeRecord>("node record");
  // Pre-order: the root comes first and every parent precedes its children.
  const bool parent_ok = index == 0 ? n.parent == kNoParent : n.parent < index;
  if (!parent_ok)
    throw FormatError("corrupt: " + in.context() + ": node " + std::to_string(index) + " has parent " +
                      (n.parent == kNoParent ? std::string("none") : std::to_string(n.parent)));
  in.check_count(n.event_count, min_encoded_size<EventStatsRecord>(), "event statistics");
  for (std::uint32_t e = 0; e < n.event_count; ++e)
    n.events.push_back(in.record<EventStats>("event statistics"));
  in.check_count(n.operation_count, min_encoded_size<OperationStatsRecord>(), "operation statistics");
  for (std::uint32_t o = 0; o < n.operation_count; ++o)
    n.operations.push_back(in.record<OperationStats>("operation statistics"));
  return n;
}

void decode_thread(ByteReader& in, Profile& profile) {
  Thread t;
  static_cast<ThreadRecord&>(t) = in.record<ThreadRecord>("thread record");
  if (static_cast<std::uint32_t>(t.kind) > static_cast<std::uint32_t>(ThreadKind::openmp_worker))
    throw FormatError("corrupt: " + in.context() + ": unknown thread kind " +
                      std::to_string(static_cast<std::uint32_t>(t.kind)));
  std::vector<std::uint32_t> depth;
  while (in.remaining() > 0) {
    t.nodes.push_back(decode_node(in, t.nodes.size()));
    depth.push_back(t.nodes.size() == 1 ? 0 : depth[t.nodes.back().parent] + 1);
    if (depth.back() > kMaxNestingDepth)
      throw FormatError("corrupt: " + in.context() + ": node " + std::to_string(t.nodes.size() - 1) +
                        " nests deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }
  if (t.nodes.empty())
    throw FormatError("corrupt: " + in.context() + ": thread " + std::to_string(t.index) + " has no nodes");
  profile.threads.push_back(std::move(t));
}

void decode_mpi(ByteReader& in, Profile& profile) {
  if (profile.has_mpi) throw FormatError("corrupt: " + in.context() + ": a second mpi section");
  MpiInfo& mpi = profile.mpi;
  static_cast<MpiFields<std::string>&>(mpi) = in.record<MpiFields<std::string>>("mpi record");
  profile.has_mpi = true;
  in.check_count(mpi.clock_count, min_encoded_size<ClockSyncRecord>(), "clock records");
  for (std::uint32_t i = 0; i < mpi.clock_count; ++i) {
    const auto c = in.record<ClockSync>("clock record");
    if (static_cast<std::uint32_t>(c.phase) > static_cast<std::uint32_t>(ClockPhase::finalize))
      throw FormatError("corrupt: " + in.context() + ": unknown clock phase " +
                        std::to_string(static_cast<std::uint32_t>(c.phase)));
    mpi.clock.push_back(c);
  }
  in.check_count(mpi.communicator_count, min_encoded_size<CommunicatorRecord>(), "communicator records");
  for (std::uint32_t i = 0; i < mpi.communicator_count; ++i) {
    Communicator comm;
    static_cast<CommunicatorRecord&>(comm) = in.record<CommunicatorRecord>("communicator record");
    if (comm.size == 0 || comm.rank < 0 || comm.rank >= static_cast<std::int64_t>(comm.size) ||
        comm.stride == 0)
      throw FormatError("corrupt: " + in.context() + ": communicator " + std::to_string(comm.id) +
                        " has rank " + std::to_string(comm.rank) + " of " + std::to_string(comm.size) +
                        ", sample stride " + std::to_string(comm.stride));
    in.check_count(comm.instance_count, min_encoded_size<CollectiveInstanceRecord>(), "collective instances");
    for (std::uint32_t k = 0; k < comm.instance_count; ++k)
      comm.instances.push_back(in.record<CollectiveInstance>("collective instance"));
    mpi.communicators.push_back(std::move(comm));
  }
}

void decode_shmem(ByteReader& in, Profile& profile) {
  if (profile.has_shmem) throw FormatError("corrupt: " + in.context() + ": a second shmem section");
  ShmemInfo& shmem = profile.shmem;
  static_cast<ShmemRecord&>(shmem) = in.record<ShmemRecord>("shmem record");
  profile.has_shmem = true;
  if (shmem.pe_count < 1 || shmem.pe < 0 || shmem.pe >= shmem.pe_count)
    throw FormatError("corrupt: " + in.context() + ": PE " + std::to_string(shmem.pe) + " of " +
                      std::to_string(shmem.pe_count));
  in.check_count(shmem.traffic_count, min_encoded_size<ShmemTrafficRecord>(), "traffic records");
  for (std::uint32_t i = 0; i < shmem.traffic_count; ++i) {
    const auto t = in.record<ShmemTrafficRecord>("traffic record");
    if (static_cast<std::uint32_t>(t.operation) > static_cast<std::uint32_t>(OneSidedOperation::atomic))
      throw FormatError("corrupt: " + in.context() + ": unknown one-sided operation " +
                        std::to_string(static_cast<std::uint32_t>(t.operation)));
    if (t.target < 0 || t.target >= shmem.pe_count)
      throw FormatError("corrupt: " + in.context() + ": traffic to PE " + std::to_string(t.target) + " of " +
                        std::to_string(shmem.pe_count));
    shmem.traffic.push_back(t);
  }
}

// The section's records stay aside until every thread is read (sections may come in any order);
// attach_iteration_histograms puts them on their nodes.
struct PendingHistogram {
  std::uint32_t thread = 0;
  std::uint32_t node = 0;
  IterationHistogram histogram;
};

void decode_iterations(ByteReader& in, std::vector<PendingHistogram>& pending) {
  while (in.remaining() > 0) {
    const auto r = in.record<IterationDistributionRecord>("iteration distribution");
    PendingHistogram h{r.thread, r.node, {}};
    h.histogram.sum_squares_high = r.sum_squares_high;
    h.histogram.sum_squares_low = r.sum_squares_low;
    in.check_count(r.bucket_count, min_encoded_size<IterationBucketRecord>(), "iteration buckets");
    std::int64_t previous = -1;
    for (std::uint32_t i = 0; i < r.bucket_count; ++i) {
      const auto b = in.record<IterationBucketRecord>("iteration bucket");
      if (b.bucket >= kIterationBuckets || static_cast<std::int64_t>(b.bucket) <= previous)
        throw FormatError("corrupt: " + in.context() + ": thread " + std::to_string(r.thread) + " node " +
                          std::to_string(r.node) + " has iteration bucket " + std::to_string(b.bucket) +
                          (b.bucket >= kIterationBuckets
                               ? " (there are " + std::to_string(kIterationBuckets) + ")"
                               : " out of order"));
      previous = b.bucket;
      h.histogram.buckets[b.bucket] = b.count;
    }
    pending.push_back(h);
  }
}

void attach_iteration_histograms(Profile& profile, const std::vector<PendingHistogram>& pending) {
  for (const PendingHistogram& h : pending) {
    const auto thread = std::find_if(profile.threads.begin(), profile.threads.end(),
                                     [&](const Thread& t) { return t.index == h.thread; });
    const auto where = "corrupt: the iteration distribution of thread " + std::to_string(h.thread) +
                       " node " + std::to_string(h.node);
    if (thread == profile.threads.end() || h.node >= thread->nodes.size())
      throw FormatError(where + " names a node the file does not hold");
    Node& node = thread->nodes[h.node];
    if (node.iteration_histogram) throw FormatError(where + " appears twice");
    node.iteration_histogram = h.histogram;
  }
}

// Whether a thread's call paths record more samples than it took. Writers since 3.7 read a running
// thread's counts before its nodes and hold the nodes within them; older ones could record a few
// samples that landed during the write in the nodes only, so their files are not held to it.
bool records_more_than_taken(const CallPathThread& thread) {
  std::uint64_t recorded = thread.dropped;
  for (const CallPathNodeRecord& n : thread.nodes)
    if (__builtin_add_overflow(recorded, n.samples, &recorded)) return true;
  return recorded > thread.samples;
}

CallPaths decode_call_paths(ByteReader& in, std::uint16_t version_minor) {
  CallPaths paths;
  static_cast<CallPathsRecord&>(paths) = in.record<CallPathsRecord>("call paths record");
  if (static_cast<std::uint32_t>(paths.clock) > static_cast<std::uint32_t>(SampleClock::wall))
    throw FormatError("corrupt: " + in.context() + ": unknown sample clock " +
                      std::to_string(static_cast<std::uint32_t>(paths.clock)));
  if (static_cast<std::uint32_t>(paths.source) > static_cast<std::uint32_t>(SampleSource::both))
    throw FormatError("corrupt: " + in.context() + ": unknown sample source " +
                      std::to_string(static_cast<std::uint32_t>(paths.source)));
  in.check_count(paths.module_count, min_encoded_size<CallPathModuleRecord>(), "call path modules");
  for (std::uint32_t m = 0; m < paths.module_count; ++m) {
    paths.modules.push_back(in.record<CallPathModule>("call path module"));
    if (paths.modules.back().id != m)
      throw FormatError("corrupt: " + in.context() + ": module " + std::to_string(m) + " has id " +
                        std::to_string(paths.modules.back().id));
  }
  in.check_count(paths.thread_count, min_encoded_size<CallPathThreadRecord>(), "call path threads");
  for (std::uint32_t t = 0; t < paths.thread_count; ++t) {
    CallPathThread thread;
    static_cast<CallPathThreadRecord&>(thread) = in.record<CallPathThreadRecord>("call path thread");
    in.check_count(thread.node_count, min_encoded_size<CallPathNodeRecord>(), "call path nodes");
    thread.nodes.reserve(thread.node_count);
    for (std::uint32_t i = 0; i < thread.node_count; ++i) {
      const auto n = in.record<CallPathNodeRecord>("call path node");
      const auto where = "corrupt: " + in.context() + ": thread " + std::to_string(thread.thread) +
                         " call path node " + std::to_string(i);
      if (n.parent != kNoParent && n.parent >= i) throw FormatError(where + " comes before its parent");
      if (n.module != kNoParent && n.module >= paths.module_count)
        throw FormatError(where + " names module " + std::to_string(n.module) + " of " +
                          std::to_string(paths.module_count));
      thread.nodes.push_back(n);
    }
    if (version_minor >= 7 && records_more_than_taken(thread))
      throw FormatError("corrupt: " + in.context() + ": thread " + std::to_string(thread.thread) +
                        "'s call paths record more samples (with " + std::to_string(thread.dropped) +
                        " dropped) than the " + std::to_string(thread.samples) + " it took");
    paths.threads.push_back(std::move(thread));
  }
  return paths;
}

// Cross-record checks once everything is decoded.
void validate(const Profile& profile, std::size_t process_sections) {
  if (process_sections != 1)
    throw FormatError("corrupt: " + std::to_string(process_sections) + " process sections (expected 1)");
  if (profile.threads.size() != profile.process.thread_count)
    throw FormatError("corrupt: the process record announces " +
                      std::to_string(profile.process.thread_count) + " threads, the file holds " +
                      std::to_string(profile.threads.size()));
  std::set<std::uint32_t> sites, events, threads;
  for (const auto& s : profile.sites)
    if (!sites.insert(s.id).second)
      throw FormatError("corrupt: site " + std::to_string(s.id) + " defined twice");
  for (const auto& e : profile.events)
    if (!events.insert(e.id).second)
      throw FormatError("corrupt: event " + std::to_string(e.id) + " defined twice");
  for (const auto& t : profile.threads) {
    if (!threads.insert(t.index).second)
      throw FormatError("corrupt: thread " + std::to_string(t.index) + " appears twice");
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      const auto& n = t.nodes[i];
      if (!sites.count(n.site))
        throw FormatError("corrupt: thread " + std::to_string(t.index) + " node " + std::to_string(i) +
                          " refers to undefined site " + std::to_string(n.site));
      for (const auto& e : n.events)
        if (!events.count(e.event))
          throw FormatError("corrupt: thread " + std::to_string(t.index) + " node " + std::to_string(i) +
                            " refers to undefined event " + std::to_string(e.event));
      for (const auto& o : n.operations)
        if (!sites.count(o.site))
          throw FormatError("corrupt: thread " + std::to_string(t.index) + " node " + std::to_string(i) +
                            " refers to undefined operation site " + std::to_string(o.site));
    }
  }
  if (profile.call_paths)
    for (const auto& t : profile.call_paths->threads) {
      const auto thread = std::find_if(profile.threads.begin(), profile.threads.end(),
                                       [&](const Thread& x) { return x.index == t.thread; });
      if (thread == profile.threads.end())
        throw FormatError("corrupt: the call paths of thread " + std::to_string(t.thread) +
                          " name a thread the file does not hold");
      for (const auto& n : t.nodes)
        if (n.interval >= thread->nodes.size())
          throw FormatError("corrupt: a call path of thread " + std::to_string(t.thread) +
                            " is in interval node " + std::to_string(n.interval) +
                            ", which the file does not hold");
    }
  std::set<std::uint32_t> communicators;
  for (const auto& c : profile.mpi.communicators) {
    if (!communicators.insert(c.id).second)
      throw FormatError("corrupt: communicator " + std::to_string(c.id) + " defined twice");
    for (const auto& x : c.instances) {
      const auto where =
          "corrupt: communicator " + std::to_string(c.id) + " instance " + std::to_string(x.sequence);
      if (!sites.count(x.site))
        throw FormatError(where + " refers to undefined site " + std::to_string(x.site));
      if (x.node == kNoParent) continue;
      const auto thread = std::find_if(profile.threads.begin(), profile.threads.end(),
                                       [&](const Thread& t) { return t.index == x.thread; });
      if (thread == profile.threads.end() || x.node >= thread->nodes.size())
        throw FormatError(where + " refers to node " + std::to_string(x.node) + " of thread " +
                          std::to_string(x.thread) + ", which the file does not hold");
    }
  }
}

SectionLimits profile_limits(bool swap, std::uint64_t sections_start) {
  return SectionLimits{sections_start, swap, kMaxProfileSectionBytes, "profile", section_name};
}

ContainerKind profile_kind() { return ContainerKind{"profile", "format", kMagic, kVersionMajor}; }

}  // namespace

Profile decode_profile(std::span<const std::uint8_t> bytes) {
  const ContainerHeader container = read_container_header(bytes, profile_kind());
  const bool swap = container.swap;
  ByteReader in(bytes, swap, "file header");
  in.take(container.sections_start, "file header");
  in.set_context("");  // past the header: each message names its section itself

  Profile profile;
  std::size_t sections = 0;
  std::size_t process_sections = 0;
  std::vector<PendingHistogram> histograms;
  for (;;) {
    if (in.remaining() == 0)
      throw FormatError("truncated: the file ends after section " + std::to_string(sections) +
                        " without its end marker (the writer was interrupted)");
    ByteReader peek = in;
    if (in.remaining() >= 4 && peek.get<std::uint32_t>("end marker") == kEndMarker) {
      in.get<std::uint32_t>("end marker");
      const auto announced = in.get<std::uint32_t>("section count");
      if (announced != sections)
        throw FormatError("corrupt: the end marker announces " + std::to_string(announced) + " sections, " +
                          std::to_string(sections) + " were read");
      if (in.remaining() != 0)
        throw FormatError("corrupt: " + std::to_string(in.remaining()) +
                          " unexpected bytes after the end marker");
      break;
    }
    const std::string where = "section " + std::to_string(sections + 1);
    const auto section = in.record<SectionHeader>((where + " header").c_str());
    const std::string context = where + " (" + section_name(section.type) + ")";
    if (section.length > in.remaining())
      throw FormatError("truncated: " + context + " declares " + std::to_string(section.length) + " bytes, " +
                        std::to_string(in.remaining()) + " remain");
    if (section.length > kMaxProfileSectionBytes)
      throw FormatError(oversized_section(context, section.length, profile_limits(swap, 0)));
    const auto payload = in.take(static_cast<std::size_t>(section.length), context.c_str());
    const auto stored_crc = in.get<std::uint32_t>((context + " checksum").c_str());
    std::uint32_t type_bytes = section.type;
    if (swap) type_bytes = byte_swapped(type_bytes);  // the CRC covers the type as stored
    std::uint32_t crc = crc32c_update(0, &type_bytes, sizeof type_bytes);
    crc = crc32c_update(crc, payload.data(), payload.size());
    if (crc != stored_crc) throw FormatError("corrupt: checksum mismatch in " + context);

    ByteReader body(payload, swap, context);
    switch (static_cast<SectionType>(section.type)) {
      case SectionType::process:
        profile.process = decode_process(body);
        ++process_sections;
        break;
      case SectionType::sites:
        decode_sites(body, profile);
        break;
      case SectionType::events:
        decode_events(body, profile);
        break;
      case SectionType::thread:
        decode_thread(body, profile);
        break;
      case SectionType::mpi:
        decode_mpi(body, profile);
        break;
      case SectionType::shmem:
        decode_shmem(body, profile);
        break;
      case SectionType::iterations:
        decode_iterations(body, histograms);
        break;
      case SectionType::limits:
        profile.threads_not_measured =
            thread_count(body.record<LimitsRecord>("limits record").threads_not_measured, context);
        break;
      case SectionType::probe_costs:
        while (body.remaining() > 0)
          profile.probe_costs.push_back(body.record<ProbeCostsRecord>("probe costs record"));
        break;
      case SectionType::call_paths:
        if (profile.call_paths) throw FormatError("corrupt: " + context + " appears twice");
        profile.call_paths = decode_call_paths(body, container.header.version_minor);
        break;
      case SectionType::setup_samples:
        while (body.remaining() > 0)
          profile.setup_samples.push_back(body.record<SetupSamplesRecord>("setup samples record"));
        break;
      case SectionType::model_threads:
        profile.model_threads =
            thread_count(body.record<ModelThreadsRecord>("model threads record").threads_left_out, context);
        break;
      default:
        body.take(body.remaining(), "unknown section");
        break;  // a later minor version's section: skip
    }
    if (body.remaining() != 0)
      throw FormatError("corrupt: " + context + " has " + std::to_string(body.remaining()) +
                        " unparsed bytes");
    ++sections;
  }
  validate(profile, process_sections);
  attach_iteration_histograms(profile, histograms);
  return profile;
}

Profile read_profile_file(const std::filesystem::path& path) {
  // Only a regular file, read up to its size: a FIFO would block, /dev/zero never end.
  const RegularFile file(path);
  try {
    // The header, then every section's length and checksum on disk: a section that claims gigabytes
    // is refused before the file is read into memory.
    std::array<std::uint8_t, 64> header{};  // more than any version's file header
    const auto header_bytes = static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), header.size()));
    file.read_at(0, header.data(), header_bytes);
    const ContainerHeader container =
        read_container_header(std::span(header.data(), header_bytes), profile_kind());
    check_sections_on_disk(file, profile_limits(container.swap, container.sections_start));
    const std::string bytes = file.read_all();
    return decode_profile(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  } catch (const FileError&) {
    throw;  // names the file already
  } catch (const FormatError& e) {
    throw FormatError(path.string() + ": " + e.what());
  }
}

}  // namespace parperf::format
