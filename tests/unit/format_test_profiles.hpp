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
// thread, the mpi section when `has_mpi`, the shmem section when `has_shmem`, the iterations section
// when a node has an iteration histogram, the limits section when a thread went unmeasured, end
// marker. Sections of an empty site or event list are still written (they are valid).
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

// The decoded model is the records with owned strings: each record is written as it is, with the
// counts and flags that the decoded model holds as vectors and booleans filled in from them.
template <class Writer>
void write_records(Writer& writer, const format::Profile& profile) {
  using namespace format;
  writer.file_header();

  writer.begin_section(SectionType::process);
  writer.record(profile.process);
  writer.end_section();

  writer.begin_section(SectionType::sites);
  for (const auto& s : profile.sites) writer.record(static_cast<const SiteFields<std::string>&>(s));
  writer.end_section();

  writer.begin_section(SectionType::events);
  for (const auto& e : profile.events) writer.record(e);
  writer.end_section();

  for (const auto& t : profile.threads) {
    writer.begin_section(SectionType::thread);
    writer.record(static_cast<const ThreadRecord&>(t));
    for (const auto& n : t.nodes) {
      NodeRecord r = n;
      r.event_count = static_cast<std::uint32_t>(n.events.size());
      r.operation_count = static_cast<std::uint32_t>(n.operations.size());
      writer.record(r);
      for (const auto& e : n.events) writer.record(e);
      for (const auto& o : n.operations) writer.record(o);
    }
    writer.end_section();
  }

  if (profile.has_mpi) {  // after the threads, as the runtime writes it: it refers to their nodes
    MpiFields<std::string> mpi = profile.mpi;
    mpi.clock_count = static_cast<std::uint32_t>(profile.mpi.clock.size());
    mpi.communicator_count = static_cast<std::uint32_t>(profile.mpi.communicators.size());
    writer.begin_section(SectionType::mpi);
    writer.record(mpi);
    for (const auto& c : profile.mpi.clock) writer.record(c);
    for (const auto& c : profile.mpi.communicators) {
      CommunicatorRecord r = c;
      r.instance_count = static_cast<std::uint32_t>(c.instances.size());
      writer.record(r);
      for (const auto& x : c.instances) writer.record(x);
    }
    writer.end_section();
  }
  if (profile.has_shmem) {  // a collector's section, like mpi
    ShmemRecord shmem = profile.shmem;
    shmem.traffic_count = static_cast<std::uint32_t>(profile.shmem.traffic.size());
    writer.begin_section(SectionType::shmem);
    writer.record(shmem);
    for (const auto& row : profile.shmem.traffic) writer.record(row);
    writer.end_section();
  }
  // The iterations section (3.3), after the collectors' as the runtime writes it; only when a node
  // has a distribution.
  bool histograms = false;
  for (const auto& t : profile.threads) {
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      if (!t.nodes[i].iteration_histogram) continue;
      if (!histograms) writer.begin_section(SectionType::iterations);
      histograms = true;
      const IterationHistogram& h = *t.nodes[i].iteration_histogram;
      IterationDistributionRecord r;
      r.thread = t.index;
      r.node = static_cast<std::uint32_t>(i);
      r.sum_squares_high = h.sum_squares_high;
      r.sum_squares_low = h.sum_squares_low;
      for (std::uint64_t count : h.buckets) r.bucket_count += count > 0 ? 1 : 0;
      writer.record(r);
      for (std::uint32_t b = 0; b < kIterationBuckets; ++b)
        if (h.buckets[b] > 0)
          writer.record(IterationBucketRecord{.bucket = b, .reserved = 0, .count = h.buckets[b]});
    }
  }
  if (histograms) writer.end_section();

  if (profile.call_paths) {
    const format::CallPaths& paths = *profile.call_paths;
    writer.begin_section(SectionType::call_paths);
    writer.record(static_cast<const format::CallPathsRecord&>(paths));
    for (const auto& module : paths.modules) writer.record(module);
    for (const auto& thread : paths.threads) {
      writer.record(static_cast<const format::CallPathThreadRecord&>(thread));
      for (const auto& node : thread.nodes) writer.record(node);
    }
    writer.end_section();
  }
  if (!profile.setup_samples.empty()) {
    writer.begin_section(SectionType::setup_samples);
    for (const auto& setup : profile.setup_samples) writer.record(setup);
    writer.end_section();
  }
  if (!profile.probe_costs.empty()) {
    writer.begin_section(SectionType::probe_costs);
    for (const auto& costs : profile.probe_costs) writer.record(costs);
    writer.end_section();
  }
  if (profile.threads_not_measured > 0) {  // as the runtime: last, and only when a limit was reached
    writer.begin_section(SectionType::limits);
    LimitsRecord limits;
    limits.threads_not_measured = profile.threads_not_measured;
    writer.record(limits);
    writer.end_section();
  }
  if (profile.model_threads > 0) {  // as the runtime: after the limits, only when there were some
    writer.begin_section(SectionType::model_threads);
    writer.record(ModelThreadsRecord{.threads_left_out = profile.model_threads});
    writer.end_section();
  }
  writer.finish();
}

}  // namespace parperf::test
