// Sample profiles for tests, written with the runtime's own RecordWriter.
//
// `rich_sample_profile()` sets every field of every record to a distinct, non-default value, so a
// reader that drops, swaps or truncates a field shows up in a round trip. `encode_profile()` writes
// any decoded-model Profile back into a file; it writes what it is given without checking it, so a
// test can also produce a well-framed file whose content is inconsistent (a node that names an
// undefined site, a wrong thread count). `section_spans()` and `reseal_checksums()` let a test edit
// a section's payload and still get past the checksum, to reach the reader's validation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "format/profile.hpp"
#include "format/records.hpp"

namespace parperf::test {

// Every record type and every field: three threads (the initial thread, an OpenMP worker with entries
// still open and a context node, one with a single node), nested nodes with user-event, OpenMP and
// MPI operation statistics, annotation sites and code-address sites (one naming its construct as
// parent), an mpi section with clock exchanges of both phases and two communicators with their
// collective samples, unicode and empty strings, the largest and the most negative values, and ids
// that are neither dense nor sorted.
format::Profile rich_sample_profile();

// The smallest valid profile: a process, the program site and one thread holding only its root node.
format::Profile minimal_profile();

// Writes the records of `profile` through any writer with RecordWriter's interface (file_header,
// begin_section, record, end_section, finish): header, process, sites, events, one section per
// thread, the mpi section when `has_mpi`, end marker. Sections of an empty site or event list are still
// written (they are valid).
template <class Writer>
void write_records(Writer& writer, const format::Profile& profile);

// The file for `profile`, written by format::RecordWriter into memory.
std::vector<std::uint8_t> encode_profile(const format::Profile& profile);

// Writes encode_profile(profile) to `path`; throws std::runtime_error when it cannot.
void write_profile_file(const std::filesystem::path& path, const format::Profile& profile);

// "" when every field of `actual` equals the one of `expected`, otherwise the first difference in a
// reader's words: "threads[1].nodes[2].events[0].sum_ns: 5, expected 7".
std::string first_difference(const format::Profile& actual, const format::Profile& expected);

// Where one section of an encoded file lies.
struct SectionSpan {
  std::uint32_t type = 0;
  std::size_t offset = 0;          // of the section's type field
  std::size_t payload_offset = 0;  // of the first payload byte
  std::uint64_t length = 0;        // payload bytes
  std::size_t crc_offset = 0;      // of the u32 checksum after the payload
};

// Follows the section framing of `bytes` (in the byte order its header names) up to the end
// marker, stopping early at the first section that does not fit.
std::vector<SectionSpan> section_spans(std::span<const std::uint8_t> bytes);

// Offset of the end marker, or bytes.size() when the framing does not lead to one.
std::size_t end_marker_offset(std::span<const std::uint8_t> bytes);

// Recomputes the checksum of every section that section_spans() finds.
void reseal_checksums(std::vector<std::uint8_t>& bytes);

// Reads or writes an integer at `offset` in the byte order of the file's header.
std::uint64_t load_uint(std::span<const std::uint8_t> bytes, std::size_t offset, std::size_t width);
void store_uint(std::vector<std::uint8_t>& bytes, std::size_t offset, std::size_t width, std::uint64_t value);

template <class Writer>
void write_records(Writer& writer, const format::Profile& profile) {
  using namespace format;
  writer.file_header();

  const auto& p = profile.process;
  writer.begin_section(SectionType::process);
  writer.record(ProcessRecord{
      p.rank, p.world_size, p.pid, p.start_unix_ns, p.duration_ns, static_cast<std::uint32_t>(p.end_reason),
      p.end_signal, static_cast<std::uint32_t>(p.clock_source), p.thread_count, p.ticks_per_second,
      p.max_depth, p.dropped_intervals, p.hostname, p.command_line, p.parperf_version, p.openmp_runtime});
  writer.end_section();

  writer.begin_section(SectionType::sites);
  for (const auto& s : profile.sites)
    writer.record(
        SiteRecord{s.id, s.kind, s.line, s.address, s.end_address, s.parent, 0, s.name, s.file, s.module});
  writer.end_section();

  writer.begin_section(SectionType::events);
  for (const auto& e : profile.events) writer.record(EventRecord{e.id, e.name, e.description});
  writer.end_section();

  for (const auto& t : profile.threads) {
    writer.begin_section(SectionType::thread);
    writer.record(ThreadRecord{t.index, t.ended ? 1u : 0u, t.os_tid, t.start_ns, t.end_ns,
                               static_cast<std::uint32_t>(t.kind), 0, t.parked_ns});
    for (const auto& n : t.nodes) {
      writer.record(NodeRecord{
          n.parent, n.site, n.value, n.count, n.sum_ns, n.min_ns, n.max_ns, n.last_begin_ns, n.open_ns,
          n.os_user_self_ns, n.os_sys_self_ns, n.iterations, n.iteration_sum_ns, n.iteration_min_ns,
          n.iteration_max_ns, (n.open ? kNodeOpen : 0u) | (n.context ? kNodeContext : 0u),
          static_cast<std::uint32_t>(n.events.size()), static_cast<std::uint32_t>(n.operations.size()), 0});
      for (const auto& e : n.events)
        writer.record(EventStatsRecord{e.event, 0, e.starts, e.ends, e.atomics, e.sum_ns, e.min_ns, e.max_ns,
                                       e.first_description});
      for (const auto& o : n.operations)
        writer.record(OperationStatsRecord{o.site, 0, o.count, o.sum_ns, o.min_ns, o.max_ns, o.wait_ns,
                                           o.wait_max_ns, o.sync_ns, o.sync_max_ns, o.bytes, o.partner_min,
                                           o.partner_max, o.partner_set, o.overlap_ns, o.last_begin_ns,
                                           o.last_end_ns});
    }
    writer.end_section();
  }

  if (profile.has_mpi) {  // after the threads, as the runtime writes it: it refers to their nodes
    const auto& m = profile.mpi;
    writer.begin_section(SectionType::mpi);
    writer.record(MpiRecord{m.world_rank, m.world_size, m.thread_level,
                            static_cast<std::uint32_t>(m.clock.size()),
                            static_cast<std::uint32_t>(m.communicators.size()), 0, m.latency_ns,
                            m.bandwidth_bytes_per_s, m.library});
    for (const auto& c : m.clock)
      writer.record(ClockSyncRecord{static_cast<std::uint32_t>(c.phase), 0, c.rank, c.send_ns, c.recv_ns,
                                    c.master_ns, c.round_trip_ns});
    for (const auto& c : m.communicators) {
      writer.record(CommunicatorRecord{c.id, c.size, c.rank, c.members_hash, c.ordinal,
                                       static_cast<std::uint32_t>(c.instances.size()), c.collectives,
                                       c.stride});
      for (const auto& x : c.instances)
        writer.record(
            CollectiveInstanceRecord{x.sequence, x.arrive_ns, x.leave_ns, x.thread, x.node, x.site, 0});
    }
    writer.end_section();
  }
  if (profile.threads_not_measured > 0) {  // as the runtime: last, and only when a limit was reached
    writer.begin_section(SectionType::limits);
    writer.record(LimitsRecord{profile.threads_not_measured});
    writer.end_section();
  }
  writer.finish();
}

}  // namespace parperf::test
