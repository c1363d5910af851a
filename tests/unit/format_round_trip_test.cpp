// The profile format round trip: what the runtime's RecordWriter writes, the analysis's reader gives
// back, every field of every record, unchanged.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/profile_reader.hpp"
#include "format/record_writer.hpp"
#include "format/records.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::format {
namespace {

using test::encode_profile;
using test::first_difference;
using test::rich_sample_profile;

TEST(FormatRoundTrip, RichProfileDecodesToEveryFieldItWasWrittenWith) {
  const Profile written = rich_sample_profile();
  const Profile read = decode_profile(encode_profile(written));
  EXPECT_EQ(first_difference(read, written), "");
}

TEST(FormatRoundTrip, FirstDifferenceNamesTheFieldThatDiffers) {
  // The comparison the round trip relies on must itself see a change deep in the tree.
  const Profile expected = rich_sample_profile();
  Profile changed = expected;
  changed.threads[1].nodes[2].events[0].sum_ns += 1;
  EXPECT_EQ(first_difference(changed, expected),
            "threads[1].nodes[2].events[0].sum_ns: " +
                std::to_string(expected.threads[1].nodes[2].events[0].sum_ns + 1) + ", expected " +
                std::to_string(expected.threads[1].nodes[2].events[0].sum_ns));
  changed = expected;
  changed.sites[2].name = "other";
  EXPECT_EQ(first_difference(changed, expected), "sites[2].name: \"other\", expected \"Ω-loop ∑ 数据\"");
  changed = expected;
  changed.threads[1].nodes[4].operations[0].sync_max_ns = 3;
  EXPECT_EQ(first_difference(changed, expected),
            "threads[1].nodes[4].operations[0].sync_max_ns: 3, expected " +
                std::to_string(expected.threads[1].nodes[4].operations[0].sync_max_ns));
  changed = expected;
  changed.threads[1].nodes[3].set_flag(format::kNodeContext, false);
  EXPECT_EQ(first_difference(changed, expected), "threads[1].nodes[3].context: false, expected true");
  changed = expected;
  changed.threads[0].nodes[1].operations[0].last_end_ns = 1;
  EXPECT_EQ(first_difference(changed, expected),
            "threads[0].nodes[1].operations[0].last_end_ns: 1, expected " +
                std::to_string(expected.threads[0].nodes[1].operations[0].last_end_ns));
  changed = expected;
  changed.mpi.communicators[1].instances[2].node = 4;
  EXPECT_EQ(first_difference(changed, expected),
            "mpi.communicators[1].instances[2].node: 4, expected 4294967295");
  changed = expected;
  changed.mpi.clock[1].phase = ClockPhase::init;
  EXPECT_EQ(first_difference(changed, expected), "mpi.clock[1].phase: 0, expected 1");
}

TEST(FormatRoundTrip, MpiSectionRoundTripsWithItsClockExchangesAndCollectiveSamples) {
  const Profile written = rich_sample_profile();
  ASSERT_TRUE(written.has_mpi);
  const Profile read = decode_profile(encode_profile(written));
  ASSERT_TRUE(read.has_mpi);
  EXPECT_EQ(read.mpi.library, "Open MPI v4.1.4, package: Debian ✓");
  ASSERT_EQ(read.mpi.clock.size(), 2u);
  EXPECT_EQ(read.mpi.clock[1].phase, ClockPhase::finalize);
  ASSERT_EQ(read.mpi.communicators.size(), 2u);
  EXPECT_EQ(read.mpi.communicators[0].stride, 64u);
  EXPECT_EQ(read.mpi.communicators[1].instances.at(1).leave_ns, 0u) << "a non-blocking collective";
  EXPECT_EQ(read.mpi.communicators[1].instances.at(2).node, kNoParent) << "an unknown interval";
  const auto& recv = read.threads[0].nodes[1].operations.at(0);
  EXPECT_EQ(recv.partner_min, 17'000 % 7);
  EXPECT_EQ(recv.partner_set, (std::uint64_t{17'000} << 4) | 0x9);
}

TEST(FormatRoundTrip, ProfileWithoutMpiSectionHasNone) {
  const Profile read = decode_profile(encode_profile(test::minimal_profile()));
  EXPECT_FALSE(read.has_mpi);
  EXPECT_TRUE(read.mpi.clock.empty());
  EXPECT_TRUE(read.mpi.communicators.empty());
}

TEST(FormatRoundTrip, DecodedRichProfileEncodesToTheSameBytes) {
  // Catches a field the reader drops even where the model comparison would miss it (a field added
  // to a record and to the model but not to first_difference()).
  const auto bytes = encode_profile(rich_sample_profile());
  EXPECT_EQ(encode_profile(decode_profile(bytes)), bytes);
}

TEST(FormatRoundTrip, MinimalProfileWithEmptyEventSectionRoundTrips) {
  const Profile written = test::minimal_profile();
  const Profile read = decode_profile(encode_profile(written));
  EXPECT_EQ(first_difference(read, written), "");
  EXPECT_TRUE(read.events.empty());
}

// The value of every field of `r`, in file order, as text (to compare a record with the default one).
template <class Record>
std::vector<std::string> field_values(Record r) {
  std::vector<std::string> values;
  fields(r, [&](auto& field) {
    using T = std::decay_t<decltype(field)>;
    if constexpr (is_text_v<T>)
      values.emplace_back(field);
    else if constexpr (std::is_enum_v<T>)
      values.push_back(std::to_string(static_cast<std::underlying_type_t<T>>(field)));
    else
      values.push_back(std::to_string(field));
  });
  return values;
}

// The position of `Record::reserved` in the record's field list: a field written as zero.
template <class Record>
std::size_t reserved_field() {
  Record r{};
  std::size_t i = 0, found = SIZE_MAX;
  fields(r, [&](auto& field) {
    if (static_cast<const void*>(&field) == static_cast<const void*>(&r.reserved)) found = i;
    ++i;
  });
  return found;
}

// Walks the records of an encoded file with the shared field lists and notes, per record type,
// which fields differed from the default-constructed record's (a parent of kNoParent is a default,
// so is an empty string) in at least one record.
class FieldCoverage {
 public:
  explicit FieldCoverage(std::span<const std::uint8_t> file) : file_(file) {}

  template <class Record>
  Record next(std::vector<bool>& seen) {
    Record r{};
    fields(r, [&](auto& field) {
      using T = std::decay_t<decltype(field)>;
      if constexpr (std::is_same_v<T, Str>) {
        const auto length = static_cast<std::size_t>(test::load_uint(file_, at_, 4));
        field = Str(reinterpret_cast<const char*>(file_.data() + at_ + 4), length);
        at_ += 4 + length;
      } else {
        field = static_cast<T>(test::load_uint(file_, at_, sizeof(T)));
        at_ += sizeof(T);
      }
    });
    const auto values = field_values(r);
    const auto defaults = field_values(Record{});
    seen.resize(values.size(), false);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] != defaults[i]) seen[i] = true;
    return r;
  }
  void seek(std::size_t at) { at_ = at; }
  std::size_t at() const { return at_; }

 private:
  std::span<const std::uint8_t> file_;
  std::size_t at_ = 0;
};

// The fields never seen with a non-default value, except `reserved` (SIZE_MAX: none excepted);
// empty when every field was, and "no <record> walked" when no record of the type was.
std::string unset_fields(const char* record, const std::vector<bool>& seen,
                         std::size_t allowed_default = SIZE_MAX) {
  if (seen.empty()) return std::string("no ") + record + " walked";
  std::string unset;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i] && i != allowed_default)
      unset += std::string(unset.empty() ? "" : ", ") + record + " field " + std::to_string(i);
  return unset;
}

TEST(FormatRoundTrip, RichSampleSetsEveryFieldOfEveryRecordTypeToANonDefaultValue) {
  // A field left at its default in every record would pass the round trip even if the reader never
  // read it. This walks the file with the field lists of records.hpp, so a field added there and
  // not set in rich_sample_profile() fails here.
  const auto file = encode_profile(rich_sample_profile());
  FieldCoverage walk(file);
  std::vector<bool> process, limits, site, event, thread, node, stats, operation, mpi, clock, communicator,
      instance, shmem, traffic, distribution, bucket, probe_costs, call_paths, call_path_module,
      call_path_thread, call_path_node, setup_samples, model_threads;
  for (const auto& section : test::section_spans(file)) {
    walk.seek(section.payload_offset);
    const auto end = section.crc_offset;
    switch (static_cast<SectionType>(section.type)) {
      case SectionType::process:
        walk.next<ProcessRecord>(process);
        break;
      case SectionType::limits:
        walk.next<LimitsRecord>(limits);
        break;
      case SectionType::sites:
        while (walk.at() < end) walk.next<SiteRecord>(site);
        break;
      case SectionType::events:
        while (walk.at() < end) walk.next<EventRecord>(event);
        break;
      case SectionType::thread:
        walk.next<ThreadRecord>(thread);
        while (walk.at() < end) {
          const auto n = walk.next<NodeRecord>(node);
          for (std::uint32_t e = 0; e < n.event_count; ++e) walk.next<EventStatsRecord>(stats);
          for (std::uint32_t o = 0; o < n.operation_count; ++o) walk.next<OperationStatsRecord>(operation);
        }
        break;
      case SectionType::mpi: {
        const auto m = walk.next<MpiRecord>(mpi);
        for (std::uint32_t c = 0; c < m.clock_count; ++c) walk.next<ClockSyncRecord>(clock);
        for (std::uint32_t c = 0; c < m.communicator_count; ++c) {
          const auto comm = walk.next<CommunicatorRecord>(communicator);
          for (std::uint32_t i = 0; i < comm.instance_count; ++i)
            walk.next<CollectiveInstanceRecord>(instance);
        }
        break;
      }
      case SectionType::iterations:
        while (walk.at() < end) {
          const auto d = walk.next<IterationDistributionRecord>(distribution);
          for (std::uint32_t b = 0; b < d.bucket_count; ++b) walk.next<IterationBucketRecord>(bucket);
        }
      case SectionType::probe_costs:
        while (walk.at() < end) walk.next<ProbeCostsRecord>(probe_costs);
        break;
      case SectionType::call_paths: {
        const auto c = walk.next<CallPathsRecord>(call_paths);
        for (std::uint32_t m = 0; m < c.module_count; ++m) walk.next<CallPathModuleRecord>(call_path_module);
        for (std::uint32_t t = 0; t < c.thread_count; ++t) {
          const auto th = walk.next<CallPathThreadRecord>(call_path_thread);
          for (std::uint32_t n = 0; n < th.node_count; ++n) walk.next<CallPathNodeRecord>(call_path_node);
        }
        break;
      }
      case SectionType::setup_samples:
        while (walk.at() < end) walk.next<SetupSamplesRecord>(setup_samples);
        break;
      case SectionType::model_threads:
        walk.next<ModelThreadsRecord>(model_threads);
        break;
      case SectionType::shmem: {
        const auto s = walk.next<ShmemRecord>(shmem);
        for (std::uint32_t t = 0; t < s.traffic_count; ++t) walk.next<ShmemTrafficRecord>(traffic);
        break;
      }
    }
    EXPECT_EQ(walk.at(), end) << "section at offset " << section.offset;
  }
  EXPECT_EQ(unset_fields("ProcessRecord", process), "");
  EXPECT_EQ(unset_fields("LimitsRecord", limits), "");
  EXPECT_EQ(unset_fields("EventRecord", event), "");
  EXPECT_EQ(unset_fields("CommunicatorRecord", communicator), "");
  EXPECT_EQ(unset_fields("ShmemRecord", shmem), "");
  // The `reserved` fields are written as zero in version 3: the only fields allowed their default.
  const auto check_reserved = [](const char* record, const std::vector<bool>& seen, std::size_t reserved) {
    ASSERT_LT(reserved, seen.size()) << record;
    EXPECT_EQ(unset_fields(record, seen, reserved), "");
    EXPECT_FALSE(seen[reserved]) << record << ".reserved must be written as zero";
  };
  check_reserved("SiteRecord", site, reserved_field<SiteRecord>());
  EXPECT_EQ(unset_fields("ThreadRecord", thread), "");
  check_reserved("NodeRecord", node, reserved_field<NodeRecord>());
  check_reserved("EventStatsRecord", stats, reserved_field<EventStatsRecord>());
  check_reserved("OperationStatsRecord", operation, reserved_field<OperationStatsRecord>());
  check_reserved("MpiRecord", mpi, reserved_field<MpiRecord>());
  check_reserved("ClockSyncRecord", clock, reserved_field<ClockSyncRecord>());
  check_reserved("ShmemTrafficRecord", traffic, reserved_field<ShmemTrafficRecord>());
  check_reserved("CollectiveInstanceRecord", instance, reserved_field<CollectiveInstanceRecord>());
  check_reserved("IterationDistributionRecord", distribution, reserved_field<IterationDistributionRecord>());
  check_reserved("IterationBucketRecord", bucket, reserved_field<IterationBucketRecord>());
  check_reserved("ProbeCostsRecord", probe_costs, reserved_field<ProbeCostsRecord>());
  EXPECT_EQ(unset_fields("CallPathsRecord", call_paths), "");
  check_reserved("CallPathModuleRecord", call_path_module, reserved_field<CallPathModuleRecord>());
  EXPECT_EQ(unset_fields("CallPathThreadRecord", call_path_thread), "");
  EXPECT_EQ(unset_fields("CallPathNodeRecord", call_path_node), "");
  check_reserved("SetupSamplesRecord", setup_samples, reserved_field<SetupSamplesRecord>());
  EXPECT_EQ(unset_fields("ModelThreadsRecord", model_threads), "");
}

TEST(FormatRoundTrip, CallPathsRoundTripAndOlderFilesHaveNone) {
  const format::Profile rich = rich_sample_profile();
  const format::Profile decoded = format::decode_profile(encode_profile(rich));
  ASSERT_TRUE(decoded.call_paths) << "the call_paths section (3.4) was not read back";
  EXPECT_EQ(test::first_difference(decoded, rich), "");
  EXPECT_EQ(decoded.call_paths->threads[0].nodes[2].samples, 526u);
  format::Profile older = rich;
  older.call_paths.reset();
  EXPECT_FALSE(format::decode_profile(encode_profile(older)).call_paths)
      << "a file without the section (3.3 and before) must read as not sampled";
}

TEST(FormatRoundTrip, ModelThreadsRoundTripAndOlderFilesHaveNone) {
  const format::Profile rich = rich_sample_profile();
  const format::Profile decoded = format::decode_profile(encode_profile(rich));
  EXPECT_EQ(decoded.model_threads, 3u) << "the model_threads section (3.8) was not read back";
  format::Profile older = rich;
  older.model_threads = 0;
  EXPECT_EQ(format::decode_profile(encode_profile(older)).model_threads, 0u)
      << "a file without the section (3.7 and before) says no thread of the model's own was left out";
}

// A count of threads no process could have started is a damaged file: refused, naming the section,
// never printed as a figure of the run.
TEST(FormatRoundTrip, ImpossibleThreadCountsAreRefused) {
  for (const bool model : {true, false}) {
    format::Profile p = rich_sample_profile();
    (model ? p.model_threads : p.threads_not_measured) = std::uint64_t{1} << 50;
    try {
      format::decode_profile(encode_profile(p));
      FAIL() << (model ? "model_threads" : "threads_not_measured") << " of 2^50 threads was accepted";
    } catch (const format::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(model ? "model threads" : "limits"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("more than a process can start"), std::string::npos) << e.what();
    }
  }
}

TEST(FormatRoundTrip, SetupSamplesRoundTripAndOlderFilesHaveNone) {
  const format::Profile rich = rich_sample_profile();
  const format::Profile decoded = format::decode_profile(encode_profile(rich));
  ASSERT_EQ(decoded.setup_samples.size(), 2u) << "the setup_samples section (3.5) was not read back";
  EXPECT_EQ(decoded.setup_samples[1].shut_down, 19u);
  format::Profile older = rich;
  older.setup_samples.clear();
  EXPECT_TRUE(format::decode_profile(encode_profile(older)).setup_samples.empty())
      << "a file without the section (3.4 and before) has no samples counted apart";
}

TEST(FormatRoundTrip, CallPathNodeBeforeItsParentIsRefused) {
  format::Profile p = rich_sample_profile();
  p.call_paths->threads[0].nodes[0].parent = 2;
  try {
    format::decode_profile(encode_profile(p));
    FAIL() << "a call-path node that names a later node as its parent was accepted";
  } catch (const format::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("before its parent"), std::string::npos) << e.what();
  }
}

// Since 3.7 a thread's call-path nodes hold at most the samples it took and did not drop: a file whose
// nodes hold more says the program ran more than it did, and is refused naming the thread. An older
// file (a writer that let samples landing during the write into the nodes only) is read as it is.
TEST(FormatRoundTrip, CallPathsRecordingMoreSamplesThanTakenAreRefusedSince37) {
  format::Profile p = rich_sample_profile();
  p.call_paths->threads[1].nodes[0].samples = 2;  // 2 recorded + 76 dropped of 77 taken
  std::vector<std::uint8_t> bytes = encode_profile(p);
  try {
    format::decode_profile(bytes);
    FAIL() << "a thread whose call paths hold 78 samples of 77 taken was accepted";
  } catch (const format::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("thread 1's call paths record more samples"), std::string::npos)
        << e.what();
  }
  p.call_paths->threads[1].nodes[0].samples = ~std::uint64_t{0};  // the sum wraps around past 64 bits
  EXPECT_THROW(format::decode_profile(encode_profile(p)), format::FormatError)
      << "a count that wraps the sum around was accepted";
  p.call_paths->threads[1].nodes[0].samples = 2;
  constexpr std::size_t kVersionMinorOffset = 10;  // after the magic and the major version
  ASSERT_EQ(bytes[kVersionMinorOffset], format::kVersionMinor);
  bytes[kVersionMinorOffset] = 6;
  EXPECT_EQ(format::decode_profile(bytes).call_paths->threads[1].nodes[0].samples, 2u)
      << "a 3.6 file, whose writer could count a sample in the nodes only, must still be read";
}

TEST(FormatRoundTrip, RichSampleHasEveryThreadKindAndBothNodeFlags) {
  // Values the field coverage above cannot see: each enumerator and each flag bit on its own.
  const Profile p = rich_sample_profile();
  std::set<ThreadKind> kinds;
  bool open = false, context = false;
  for (const auto& t : p.threads) {
    kinds.insert(t.kind);
    for (const auto& n : t.nodes) open |= n.open(), context |= n.context();
  }
  EXPECT_EQ(kinds, (std::set<ThreadKind>{ThreadKind::other, ThreadKind::initial, ThreadKind::openmp_worker}));
  EXPECT_TRUE(open);
  EXPECT_TRUE(context);
}

TEST(FormatRoundTrip, SectionsMayComeInAnyOrderAndSitesMaySpanSeveralSections) {
  // The runtime may learn of sites while it writes threads; the reader resolves references only
  // once the whole file is read.
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(ThreadRecord{});
  NodeRecord node;
  node.parent = kNoParent;
  node.site = 5;
  writer.record(node);
  writer.end_section();
  writer.begin_section(SectionType::sites);
  writer.record(SiteRecord{.id = 4, .kind = 1, .line = 10, .name = "helper", .file = "a.c"});
  writer.end_section();
  ProcessRecord process;
  process.thread_count = 1;
  writer.begin_section(SectionType::process);
  writer.record(process);
  writer.end_section();
  writer.begin_section(SectionType::sites);
  writer.record(SiteRecord{.id = 5, .kind = 0, .line = 0, .name = "program", .file = ""});
  writer.end_section();
  writer.finish();

  const Profile read = decode_profile(sink.bytes());
  ASSERT_EQ(read.sites.size(), 2u);
  EXPECT_EQ(read.sites[0].name, "helper");
  EXPECT_EQ(read.sites[1].name, "program");
  ASSERT_EQ(read.threads.size(), 1u);
  EXPECT_EQ(read.threads[0].nodes.at(0).site, 5u);
}

TEST(FormatRoundTrip, IterationHistogramsRoundTripOnTheirNodesAndOthersHaveNone) {
  const Profile read = decode_profile(encode_profile(rich_sample_profile()));
  std::size_t with = 0, without = 0;
  for (const auto& t : read.threads)
    for (const auto& n : t.nodes) (n.iteration_histogram ? with : without) += 1;
  EXPECT_EQ(with, 2u) << "the rich sample gives two loop nodes a distribution";
  EXPECT_GT(without, 0u);
  const IterationHistogram& h = *read.threads[1].nodes[4].iteration_histogram;
  EXPECT_EQ(h.buckets[12], 11u);
  EXPECT_EQ(h.count(), 23u);
}

TEST(FormatVersioning, VersionThreeTwoFileWithoutIterationsSectionHasNoDistributions) {
  // A 3.2 file is a 3.3 file without the iterations section: its loops keep count, sum, min and max.
  Profile p = rich_sample_profile();
  for (auto& t : p.threads)
    for (auto& n : t.nodes) n.iteration_histogram.reset();
  auto bytes = encode_profile(p);
  test::store_uint(bytes, 10, 2, 2);
  const Profile read = decode_profile(bytes);
  EXPECT_EQ(first_difference(read, p), "");
  EXPECT_EQ(read.threads[0].nodes[2].iterations.count, p.threads[0].nodes[2].iterations.count);
}

TEST(FormatVersioning, FileOfANewerMinorVersionIsRead) {
  // Minor versions only add section types, which this reader skips; the version it reads is 3.x.
  auto bytes = encode_profile(rich_sample_profile());
  test::store_uint(bytes, 10, 2, 7);
  EXPECT_EQ(first_difference(decode_profile(bytes), rich_sample_profile()), "");
}

TEST(FormatVersioning, SectionOfAnUnknownTypeIsSkipped) {
  // What a version 3.1 file might hold: a section this reader does not know, between known ones.
  const Profile expected = test::minimal_profile();
  const auto plain = encode_profile(expected);
  const std::size_t end = test::end_marker_offset(plain);
  MemorySink extra;
  RecordWriter writer(extra);
  writer.begin_section(static_cast<SectionType>(0x0001'0000));
  writer.record(
      SiteRecord{.id = 1, .kind = 2, .line = 3, .name = "looks like a site", .file = "but is not one"});
  writer.end_section();
  writer.begin_section(static_cast<SectionType>(99));  // and an empty one
  writer.end_section();

  std::vector<std::uint8_t> bytes(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(end));
  bytes.insert(bytes.end(), extra.bytes().begin(), extra.bytes().end());
  bytes.insert(bytes.end(), plain.begin() + static_cast<std::ptrdiff_t>(end), plain.end());
  const auto sections = test::section_spans(plain).size();
  test::store_uint(bytes, bytes.size() - 4, 4, sections + 2);  // the end marker counts them too

  EXPECT_EQ(first_difference(decode_profile(bytes), expected), "");
}

}  // namespace
}  // namespace parperf::format
