// Profile decoding. Nothing read from the file is trusted before it is checked: every count and
// length against the bytes that remain, every section against its checksum, every reference
// (parent node, site, event) against what the file defines.
#include "format/profile_reader.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>
#include <string>

#include "format/byte_reader.hpp"
#include "format/crc32c.hpp"
#include "format/records.hpp"
#include "format/regular_file.hpp"

namespace parperf::format {
namespace {

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
  }
  return "unknown type " + std::to_string(type);
}

std::string str(Str s) { return std::string(s); }

ProcessInfo decode_process(ByteReader& in) {
  const auto r = in.record<ProcessRecord>("process record");
  ProcessInfo p;
  p.rank = r.rank;
  p.world_size = r.world_size;
  p.pid = r.pid;
  p.start_unix_ns = r.start_unix_ns;
  p.duration_ns = r.duration_ns;
  if (r.end_reason > static_cast<std::uint32_t>(EndReason::mpi_abort))
    throw FormatError("corrupt: " + in.context() + ": unknown end reason " + std::to_string(r.end_reason));
  p.end_reason = static_cast<EndReason>(r.end_reason);
  p.end_signal = r.end_signal;
  if (r.clock_source > static_cast<std::uint32_t>(ClockSource::monotonic))
    throw FormatError("corrupt: " + in.context() + ": unknown clock source " +
                      std::to_string(r.clock_source));
  p.clock_source = static_cast<ClockSource>(r.clock_source);
  p.thread_count = r.thread_count;
  p.ticks_per_second = r.ticks_per_second;
  p.max_depth = r.max_depth;
  p.dropped_intervals = r.dropped_intervals;
  p.hostname = str(r.hostname);
  p.command_line = str(r.command_line);
  p.parperf_version = str(r.parperf_version);
  p.openmp_runtime = str(r.openmp_runtime);
  if (p.world_size < 1 || p.rank < 0 || p.rank >= p.world_size)
    throw FormatError("corrupt: " + in.context() + ": rank " + std::to_string(p.rank) + " of a run of " +
                      std::to_string(p.world_size) + " processes");
  return p;
}

void decode_sites(ByteReader& in, Profile& profile) {
  while (in.remaining() > 0) {
    const auto r = in.record<SiteRecord>("site record");
    profile.sites.push_back(Site{r.id, r.kind, r.line, str(r.name), str(r.file), r.address, r.end_address,
                                 r.parent, str(r.module)});
  }
}

void decode_events(ByteReader& in, Profile& profile) {
  while (in.remaining() > 0) {
    const auto r = in.record<EventRecord>("event record");
    profile.events.push_back(Event{r.id, str(r.name), str(r.description)});
  }
}

Node decode_node(ByteReader& in, std::size_t index) {
  const auto r = in.record<NodeRecord>("node record");
  Node n;
  n.parent = r.parent;
  n.site = r.site;
  n.value = r.value;
  n.count = r.count;
  n.sum_ns = r.sum_ns;
  n.min_ns = r.min_ns;
  n.max_ns = r.max_ns;
  n.last_begin_ns = r.last_begin_ns;
  n.open_ns = r.open_ns;
  n.open = (r.flags & kNodeOpen) != 0;
  n.context = (r.flags & kNodeContext) != 0;
  n.os_user_self_ns = r.os_user_self_ns;
  n.os_sys_self_ns = r.os_sys_self_ns;
  n.iterations = r.iterations;
  n.iteration_sum_ns = r.iteration_sum_ns;
  n.iteration_min_ns = r.iteration_min_ns;
  n.iteration_max_ns = r.iteration_max_ns;
  // Pre-order: the root comes first and every parent precedes its children.
  const bool parent_ok = index == 0 ? r.parent == kNoParent : r.parent < index;
  if (!parent_ok)
    throw FormatError("corrupt: " + in.context() + ": node " + std::to_string(index) + " has parent " +
                      (r.parent == kNoParent ? std::string("none") : std::to_string(r.parent)));
  in.check_count(r.event_count, min_encoded_size<EventStatsRecord>(), "event statistics");
  for (std::uint32_t e = 0; e < r.event_count; ++e) {
    const auto s = in.record<EventStatsRecord>("event statistics");
    n.events.push_back(EventStats{s.event, s.starts, s.ends, s.atomics, s.sum_ns, s.min_ns, s.max_ns,
                                  str(s.first_description)});
  }
  in.check_count(r.operation_count, min_encoded_size<OperationStatsRecord>(), "operation statistics");
  for (std::uint32_t o = 0; o < r.operation_count; ++o) {
    const auto s = in.record<OperationStatsRecord>("operation statistics");
    n.operations.push_back(OperationStats{
        s.site, s.count, s.sum_ns, s.min_ns, s.max_ns, s.wait_ns, s.wait_max_ns, s.sync_ns, s.sync_max_ns,
        s.bytes, s.partner_min, s.partner_max, s.partner_set, s.overlap_ns, s.last_begin_ns, s.last_end_ns});
  }
  return n;
}

void decode_thread(ByteReader& in, Profile& profile) {
  const auto r = in.record<ThreadRecord>("thread record");
  Thread t;
  t.index = r.index;
  t.ended = r.ended != 0;
  t.os_tid = r.os_tid;
  t.start_ns = r.start_ns;
  t.end_ns = r.end_ns;
  if (r.kind > static_cast<std::uint32_t>(ThreadKind::openmp_worker))
    throw FormatError("corrupt: " + in.context() + ": unknown thread kind " + std::to_string(r.kind));
  t.kind = static_cast<ThreadKind>(r.kind);
  t.parked_ns = r.parked_ns;
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
  const auto r = in.record<MpiRecord>("mpi record");
  MpiInfo& mpi = profile.mpi;
  profile.has_mpi = true;
  mpi.world_rank = r.world_rank;
  mpi.world_size = r.world_size;
  mpi.thread_level = r.thread_level;
  mpi.latency_ns = r.latency_ns;
  mpi.bandwidth_bytes_per_s = r.bandwidth_bytes_per_s;
  mpi.library = str(r.library);
  in.check_count(r.clock_count, min_encoded_size<ClockSyncRecord>(), "clock records");
  for (std::uint32_t i = 0; i < r.clock_count; ++i) {
    const auto c = in.record<ClockSyncRecord>("clock record");
    if (c.phase > static_cast<std::uint32_t>(ClockPhase::finalize))
      throw FormatError("corrupt: " + in.context() + ": unknown clock phase " + std::to_string(c.phase));
    mpi.clock.push_back(ClockSync{static_cast<ClockPhase>(c.phase), c.rank, c.send_ns, c.recv_ns, c.master_ns,
                                  c.round_trip_ns});
  }
  in.check_count(r.communicator_count, min_encoded_size<CommunicatorRecord>(), "communicator records");
  for (std::uint32_t i = 0; i < r.communicator_count; ++i) {
    const auto c = in.record<CommunicatorRecord>("communicator record");
    if (c.size == 0 || c.rank < 0 || c.rank >= static_cast<std::int64_t>(c.size) || c.stride == 0)
      throw FormatError("corrupt: " + in.context() + ": communicator " + std::to_string(c.id) + " has rank " +
                        std::to_string(c.rank) + " of " + std::to_string(c.size) + ", sample stride " +
                        std::to_string(c.stride));
    Communicator comm{c.id, c.size, c.rank, c.members_hash, c.ordinal, c.collectives, c.stride, {}};
    in.check_count(c.instance_count, min_encoded_size<CollectiveInstanceRecord>(), "collective instances");
    for (std::uint32_t k = 0; k < c.instance_count; ++k) {
      const auto x = in.record<CollectiveInstanceRecord>("collective instance");
      comm.instances.push_back(
          CollectiveInstance{x.sequence, x.arrive_ns, x.leave_ns, x.thread, x.node, x.site});
    }
    mpi.communicators.push_back(std::move(comm));
  }
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

}  // namespace

Profile decode_profile(std::span<const std::uint8_t> bytes) {
  if (bytes.empty())
    throw FormatError("empty file (the program may have been killed before it wrote its profile)");
  const std::size_t magic_bytes = std::min(bytes.size(), kMagic.size());
  if (std::memcmp(bytes.data(), kMagic.data(), magic_bytes) != 0)
    throw FormatError("not a parperf profile (unrecognised magic bytes)");

  // The header's byte order field decides how everything after it, the header's own version
  // fields included, is read; it sits after the magic and the two 16-bit version fields.
  constexpr std::size_t kByteOrderOffset = 12;
  if (bytes.size() <= kByteOrderOffset) throw FormatError("truncated: the file header is incomplete");
  const std::uint8_t order = bytes[kByteOrderOffset];
  if (order != kLittleEndian && order != kBigEndian)
    throw FormatError("corrupt header: byte order marker " + std::to_string(order));
  const bool swap = order != (std::endian::native == std::endian::little ? kLittleEndian : kBigEndian);

  ByteReader in(bytes, swap, "file header");
  const auto header = in.record<FileHeader>("file header");
  if (header.version_major != kVersionMajor)
    throw FormatError("format version " + std::to_string(header.version_major) + "." +
                      std::to_string(header.version_minor) +
                      " is not supported (this parperf reads version " + std::to_string(kVersionMajor) +
                      ".x)");
  if (header.integer_size != kIntegerSize || header.time_size != kTimeSize)
    throw FormatError("unsupported type sizes: integers of " + std::to_string(header.integer_size) +
                      " bytes, times of " + std::to_string(header.time_size) +
                      " bytes (this version uses 8 and 8)");

  in.set_context("");  // past the header: each message names its section itself

  Profile profile;
  std::size_t sections = 0;
  std::size_t process_sections = 0;
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
      case SectionType::limits:
        profile.threads_not_measured = body.record<LimitsRecord>("limits record").threads_not_measured;
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
  return profile;
}

Profile read_profile_file(const std::filesystem::path& path) {
  // Only a regular file, read up to its size: a FIFO would block, /dev/zero never end.
  const std::string bytes = RegularFile(path).read_all();
  try {
    return decode_profile(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  } catch (const FormatError& e) {
    throw FormatError(path.string() + ": " + e.what());
  }
}

}  // namespace parperf::format
