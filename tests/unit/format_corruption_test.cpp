// The reader on hand-made bad input: each kind of damage gives a FormatError whose one-line message
// names the problem the way a user will read it after "profile.3.ppf: ".
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/profile_reader.hpp"
#include "format/record_writer.hpp"
#include "format/records.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::format {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The reader's message for `bytes`, or a note that it accepted them.
std::string error_of(const Bytes& bytes) {
  try {
    decode_profile(bytes);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "(decoded without error)";
}

Bytes sample() { return test::encode_profile(test::rich_sample_profile()); }

test::SectionSpan section(const Bytes& bytes, std::size_t number) {
  return test::section_spans(bytes).at(number - 1);
}

// --- Not a profile at all ---

TEST(FormatBadInput, EmptyFileSaysSoAndSuggestsWhy) {
  EXPECT_EQ(error_of({}), "empty file (the program may have been killed before it wrote its profile)");
}

TEST(FormatBadInput, ElfBinaryIsNotAParperfProfile) {
  const Bytes elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0, 1, 0, 0, 0};
  EXPECT_EQ(error_of(elf), "not a parperf profile (unrecognised magic bytes)");
}

TEST(FormatBadInput, JsonTextIsNotAParperfProfile) {
  // The likeliest mix-up in a run directory: run.json passed where a profile was expected.
  const std::string_view json = R"({"command": "./solver", "ranks": 2})";
  EXPECT_EQ(error_of(Bytes(json.begin(), json.end())), "not a parperf profile (unrecognised magic bytes)");
}

TEST(FormatBadInput, PngWithTheSameMagicShapeIsNotAParperfProfile) {
  const Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0,
                     0,    13,  'I', 'H', 'D',  'R',  0,    0,    0, 1};
  EXPECT_EQ(error_of(png), "not a parperf profile (unrecognised magic bytes)");
}

TEST(FormatBadInput, RandomBytesAreNotAParperfProfile) {
  std::mt19937_64 random(7);
  Bytes noise(4096);
  for (auto& b : noise) b = static_cast<std::uint8_t>(random());
  ASSERT_NE(noise[0], 0x89);
  EXPECT_EQ(error_of(noise), "not a parperf profile (unrecognised magic bytes)");
}

TEST(FormatBadInput, ProfileMangledByATextModeTransferIsNotAParperfProfile) {
  // CR LF turned into LF: the magic's CR LF pair exists to catch exactly this.
  Bytes bytes = sample();
  bytes.erase(bytes.begin() + 4);
  EXPECT_EQ(error_of(bytes), "not a parperf profile (unrecognised magic bytes)");
}

TEST(FormatBadInput, FileHoldingOnlyPartOfTheMagicIsTruncated) {
  const Bytes bytes = sample();
  EXPECT_EQ(error_of(Bytes(bytes.begin(), bytes.begin() + 5)), "truncated: the file header is incomplete");
}

// --- The file header ---

TEST(FormatBadInput, NewerMajorVersionIsRefusedWithBothVersionsNamed) {
  Bytes bytes = sample();
  test::store_uint(bytes, 8, 2, 4);
  test::store_uint(bytes, 10, 2, 0);
  EXPECT_EQ(error_of(bytes), "format version 4.0 is not supported (this parperf reads version 3.x)");
}

TEST(FormatBadInput, OlderMajorVersionIsRefused) {
  // Version 2 operation statistics lack the fields version 3 added: read as version 3, every record
  // after the first would shift.
  Bytes bytes = sample();
  test::store_uint(bytes, 8, 2, 2);
  test::store_uint(bytes, 10, 2, 0);
  EXPECT_EQ(error_of(bytes), "format version 2.0 is not supported (this parperf reads version 3.x)");
  test::store_uint(bytes, 8, 2, 1);
  EXPECT_EQ(error_of(bytes), "format version 1.0 is not supported (this parperf reads version 3.x)");
}

TEST(FormatBadInput, MajorVersionZeroIsRefused) {
  Bytes bytes = sample();
  test::store_uint(bytes, 8, 2, 0);
  test::store_uint(bytes, 10, 2, 3);
  EXPECT_EQ(error_of(bytes), "format version 0.3 is not supported (this parperf reads version 3.x)");
}

TEST(FormatBadInput, FourByteIntegersAreUnsupportedTypeSizes) {
  Bytes bytes = sample();
  bytes[13] = 4;
  EXPECT_EQ(error_of(bytes),
            "unsupported type sizes: integers of 4 bytes, times of 8 bytes (this version uses 8 and 8)");
}

TEST(FormatBadInput, SixteenByteTimesAreUnsupportedTypeSizes) {
  Bytes bytes = sample();
  bytes[14] = 16;
  EXPECT_EQ(error_of(bytes),
            "unsupported type sizes: integers of 8 bytes, times of 16 bytes (this version uses 8 and 8)");
}

TEST(FormatBadInput, UnknownByteOrderMarkerIsACorruptHeader) {
  Bytes bytes = sample();
  bytes[12] = 3;
  EXPECT_EQ(error_of(bytes), "corrupt header: byte order marker 3");
  bytes[12] = 0;
  EXPECT_EQ(error_of(bytes), "corrupt header: byte order marker 0");
}

// --- Section framing and checksums ---

TEST(FormatBadInput, DamagedPayloadIsAChecksumMismatchNamingTheSection) {
  Bytes bytes = sample();
  bytes[section(bytes, 2).payload_offset + 9] ^= 0x01;
  EXPECT_EQ(error_of(bytes), "corrupt: checksum mismatch in section 2 (sites)");
}

TEST(FormatBadInput, DamagedStoredChecksumIsAChecksumMismatch) {
  Bytes bytes = sample();
  bytes[section(bytes, 4).crc_offset + 3] ^= 0x80;
  EXPECT_EQ(error_of(bytes), "corrupt: checksum mismatch in section 4 (thread)");
}

TEST(FormatBadInput, DamagedSectionTypeIsCaughtByTheChecksum) {
  // The checksum covers the type, so a damaged type is not mistaken for a newer section to skip.
  Bytes bytes = sample();
  bytes[section(bytes, 3).offset] ^= 0x40;
  EXPECT_EQ(error_of(bytes), "corrupt: checksum mismatch in section 3 (unknown type 67)");
}

TEST(FormatBadInput, SectionLengthLargerThanTheFileIsTruncation) {
  Bytes bytes = sample();
  const auto sites = section(bytes, 2);
  const std::size_t remain = bytes.size() - sites.payload_offset;
  test::store_uint(bytes, sites.offset + 4, 8, std::uint64_t{1} << 63);
  EXPECT_EQ(error_of(bytes), "truncated: section 2 (sites) declares 9223372036854775808 bytes, " +
                                 std::to_string(remain) + " remain");
  test::store_uint(bytes, sites.offset + 4, 8, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(error_of(bytes), "truncated: section 2 (sites) declares 18446744073709551615 bytes, " +
                                 std::to_string(remain) + " remain");
}

TEST(FormatBadInput, FileCutInsideASectionIsTruncationNamingTheSection) {
  Bytes bytes = sample();
  const auto thread = section(bytes, 4);
  bytes.resize(thread.payload_offset + 100);
  EXPECT_EQ(error_of(bytes),
            "truncated: section 4 (thread) declares " + std::to_string(thread.length) + " bytes, 100 remain");
}

// KNOWN BUG (src/format/profile_reader.cpp, decode_profile): the reader that walks the sections is
// built with the context "file header", so a cut in a section header, a checksum or the section
// count reads "truncated: file header: section 3 (events) checksum needs 4 bytes, 2 remain",
// pointing the user at the wrong place. Fails until that context is dropped after the header.
TEST(FormatBadInput, FileCutInsideAChecksumIsNotBlamedOnTheFileHeader) {
  Bytes bytes = sample();
  bytes.resize(section(bytes, 3).crc_offset + 2);
  const std::string message = error_of(bytes);
  EXPECT_EQ(message.rfind("truncated: ", 0), 0u) << message;
  EXPECT_NE(message.find("section 3 (events) checksum"), std::string::npos) << message;
  EXPECT_EQ(message.find("file header"), std::string::npos) << message;
}

TEST(FormatBadInput, FileCutAfterTheLastSectionIsMissingItsEndMarker) {
  Bytes bytes = sample();
  bytes.resize(test::end_marker_offset(bytes));
  EXPECT_EQ(error_of(bytes),
            "truncated: the file ends after section 14 without its end marker (the writer was interrupted)");
}

TEST(FormatBadInput, WrongSectionCountAfterTheEndMarkerIsCorrupt) {
  // A profile whose writer lost a whole section (or a file spliced from two) cannot pass.
  Bytes bytes = sample();
  test::store_uint(bytes, bytes.size() - 4, 4, 15);
  EXPECT_EQ(error_of(bytes), "corrupt: the end marker announces 15 sections, 14 were read");
}

TEST(FormatBadInput, BytesAfterTheEndMarkerAreCorrupt) {
  Bytes bytes = sample();
  bytes.insert(bytes.end(), {'j', 'u', 'n', 'k'});
  EXPECT_EQ(error_of(bytes), "corrupt: 4 unexpected bytes after the end marker");
}

TEST(FormatBadInput, TwoProfilesWrittenIntoOneFileAreCorrupt) {
  // What a second writer appending to the same file would leave.
  const Bytes one = sample();
  Bytes two = one;
  two.insert(two.end(), one.begin(), one.end());
  EXPECT_EQ(error_of(two),
            "corrupt: " + std::to_string(one.size()) + " unexpected bytes after the end marker");
}

// --- Records inside well-checksummed sections (what a buggy writer could produce) ---

TEST(FormatBadInput, StringLongerThanItsSectionIsTruncation) {
  Bytes bytes = sample();
  const auto process = section(bytes, 1);
  const std::size_t hostname_length = process.payload_offset + 80;  // after the fixed-width fields
  test::store_uint(bytes, hostname_length, 4, 0xffffffff);
  test::reseal_checksums(bytes);
  EXPECT_EQ(error_of(bytes), "truncated: section 1 (process): process record needs 4294967295 bytes, " +
                                 std::to_string(process.length - 84) + " remain");
}

TEST(FormatBadInput, EventStatisticsCountThatCannotFitIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(ThreadRecord{});
  NodeRecord node;
  node.event_count = 1000;
  writer.record(node);
  writer.record(EventStatsRecord{});
  writer.end_section();
  writer.finish();
  EXPECT_EQ(
      error_of(sink.bytes()),
      "corrupt: section 1 (thread): event statistics count 1000 cannot fit in the 60 bytes that remain");
}

TEST(FormatBadInput, OperationStatisticsCountThatCannotFitIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(ThreadRecord{});
  NodeRecord node;
  node.operation_count = 2;
  writer.record(node);
  writer.record(OperationStatsRecord{});
  writer.end_section();
  writer.finish();
  EXPECT_EQ(
      error_of(sink.bytes()),
      "corrupt: section 1 (thread): operation statistics count 2 cannot fit in the 128 bytes that remain");
}

// The iterations section (3.3): every count against the bytes that remain, every bucket index
// against the histogram's size and order, every node reference against the threads read.
Bytes with_iterations_section(const IterationDistributionRecord& distribution,
                              const std::vector<IterationBucketRecord>& buckets) {
  const Bytes plain = test::encode_profile(test::minimal_profile());
  const std::size_t end = test::end_marker_offset(plain);
  MemorySink extra;
  RecordWriter writer(extra);
  writer.begin_section(SectionType::iterations);
  writer.record(distribution);
  for (const auto& b : buckets) writer.record(b);
  writer.end_section();
  Bytes bytes(plain.begin(), plain.begin() + static_cast<std::ptrdiff_t>(end));
  bytes.insert(bytes.end(), extra.bytes().begin(), extra.bytes().end());
  bytes.insert(bytes.end(), plain.begin() + static_cast<std::ptrdiff_t>(end), plain.end());
  test::store_uint(bytes, bytes.size() - 4, 4, test::section_spans(plain).size() + 1);
  return bytes;
}

TEST(FormatBadInput, IterationBucketCountThatCannotFitIsCorrupt) {
  const auto bytes = with_iterations_section({.bucket_count = 3}, {{.bucket = 1, .count = 2}});
  EXPECT_EQ(
      error_of(bytes),
      "corrupt: section 5 (iterations): iteration buckets count 3 cannot fit in the 16 bytes that remain");
}

TEST(FormatBadInput, IterationBucketPastTheHistogramIsCorrupt) {
  const auto bytes = with_iterations_section({.bucket_count = 1}, {{.bucket = 48, .count = 2}});
  EXPECT_EQ(error_of(bytes),
            "corrupt: section 5 (iterations): thread 0 node 0 has iteration bucket 48 (there are 48)");
}

TEST(FormatBadInput, IterationBucketsOutOfOrderAreCorrupt) {
  const auto bytes = with_iterations_section({.bucket_count = 2}, {{.bucket = 7, .count = 2}, {.bucket = 7}});
  EXPECT_EQ(error_of(bytes),
            "corrupt: section 5 (iterations): thread 0 node 0 has iteration bucket 7 out of order");
}

TEST(FormatBadInput, IterationDistributionOfAMissingNodeIsCorrupt) {
  EXPECT_EQ(error_of(with_iterations_section({.node = 1}, {})),
            "corrupt: the iteration distribution of thread 0 node 1 names a node the file does not hold");
  EXPECT_EQ(error_of(with_iterations_section({.thread = 4}, {})),
            "corrupt: the iteration distribution of thread 4 node 0 names a node the file does not hold");
}

TEST(FormatBadInput, SecondIterationDistributionOfOneNodeIsCorrupt) {
  // A second section naming thread 0 node 0 again, before the end marker.
  Bytes twice = with_iterations_section({}, {});
  MemorySink extra;
  RecordWriter writer(extra);
  writer.begin_section(SectionType::iterations);
  writer.record(IterationDistributionRecord{});
  writer.end_section();
  const std::size_t end = test::end_marker_offset(twice);
  twice.insert(twice.begin() + static_cast<std::ptrdiff_t>(end), extra.bytes().begin(), extra.bytes().end());
  test::store_uint(twice, twice.size() - 4, 4, test::section_spans(twice).size());
  EXPECT_EQ(error_of(twice), "corrupt: the iteration distribution of thread 0 node 0 appears twice");
}

TEST(FormatBadInput, ProcessSectionWithBytesAfterItsRecordIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::process);
  ProcessRecord process;
  writer.record(process);
  writer.record(EventRecord{});  // 12 bytes no process section holds
  writer.end_section();
  writer.finish();
  EXPECT_EQ(error_of(sink.bytes()), "corrupt: section 1 (process) has 12 unparsed bytes");
}

TEST(FormatBadInput, ThreadSectionTooShortForItsThreadRecordIsTruncation) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(EventRecord{});  // 12 bytes: index, ended, then 4 of the 8 bytes of os_tid
  writer.end_section();
  writer.finish();
  EXPECT_EQ(error_of(sink.bytes()), "truncated: section 1 (thread): thread record needs 8 bytes, 4 remain");
}

TEST(FormatBadInput, ThreadWithoutNodesIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(ThreadRecord{.index = 3});
  writer.end_section();
  writer.finish();
  EXPECT_EQ(error_of(sink.bytes()), "corrupt: section 1 (thread): thread 3 has no nodes");
}

// --- Consistency between records ---

Bytes encoded(const Profile& p) { return test::encode_profile(p); }

TEST(FormatBadInput, NodeReferringToAnUndefinedSiteIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[3].site = 99;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: thread 0 node 3 refers to undefined site 99");
}

TEST(FormatBadInput, EventStatisticsReferringToAnUndefinedEventAreCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[1].events[1].event = 77;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: thread 0 node 1 refers to undefined event 77");
}

TEST(FormatBadInput, OperationStatisticsReferringToAnUndefinedSiteAreCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[5].operations[1].site = 77;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: thread 0 node 5 refers to undefined operation site 77");
}

TEST(FormatBadInput, UnknownThreadKindIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[1].kind = static_cast<ThreadKind>(3);
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 5 (thread): unknown thread kind 3");
}

TEST(FormatBadInput, NodeWhoseParentComesLaterIsCorrupt) {
  // Nodes are in pre-order: a parent always precedes its children, so a forward parent is a lie.
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[1].parent = 2;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 4 (thread): node 1 has parent 2");
}

TEST(FormatBadInput, NodeThatIsItsOwnParentIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[2].parent = 2;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 4 (thread): node 2 has parent 2");
}

TEST(FormatBadInput, RootWithAParentIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[1].nodes[0].parent = 0;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 5 (thread): node 0 has parent 0");
}

TEST(FormatBadInput, SecondRootInOneThreadIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[0].nodes[3].parent = kNoParent;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 4 (thread): node 3 has parent none");
}

TEST(FormatBadInput, ThreadCountDifferentFromTheThreadsHeldIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.process.thread_count = 4;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: the process record announces 4 threads, the file holds 3");
}

TEST(FormatBadInput, ThreadAppearingTwiceIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.threads[2].index = 2;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: thread 2 appears twice");
}

TEST(FormatBadInput, SiteDefinedTwiceIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.sites[3].id = 12;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: site 12 defined twice");
}

TEST(FormatBadInput, EventDefinedTwiceIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.events[0].id = 900;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: event 900 defined twice");
}

TEST(FormatBadInput, FileWithoutAProcessSectionIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.finish();
  EXPECT_EQ(error_of(sink.bytes()), "corrupt: 0 process sections (expected 1)");
}

TEST(FormatBadInput, FileWithTwoProcessSectionsIsCorrupt) {
  Bytes bytes = sample();
  const auto process = section(bytes, 1);
  const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(process.offset);
  const Bytes copy(begin, bytes.begin() + static_cast<std::ptrdiff_t>(process.crc_offset + 4));
  bytes.insert(begin, copy.begin(), copy.end());
  test::store_uint(bytes, bytes.size() - 4, 4, 15);
  EXPECT_EQ(error_of(bytes), "corrupt: 2 process sections (expected 1)");
}

TEST(FormatBadInput, ShmemPeOutsideItsCountIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.shmem.pe = 12;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 8 (shmem): PE 12 of 12");
}

TEST(FormatBadInput, ShmemTrafficToAPeOutsideTheRunIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.shmem.traffic[1].target = -1;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 8 (shmem): traffic to PE -1 of 12");
}

TEST(FormatBadInput, UnknownOneSidedOperationIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.shmem.traffic[0].operation = static_cast<OneSidedOperation>(3);
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 8 (shmem): unknown one-sided operation 3");
}

TEST(FormatBadInput, RankOutsideTheRunIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.process.rank = 12;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 1 (process): rank 12 of a run of 12 processes");
  p.process.rank = -1;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 1 (process): rank -1 of a run of 12 processes");
  p.process.rank = 0;
  p.process.world_size = 0;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 1 (process): rank 0 of a run of 0 processes");
}

TEST(FormatBadInput, UnknownEndReasonIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.process.end_reason = static_cast<EndReason>(5);
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 1 (process): unknown end reason 5");
}

TEST(FormatBadInput, UnknownClockSourceIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.process.clock_source = static_cast<ClockSource>(2);
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 1 (process): unknown clock source 2");
}

// --- The mpi section ---

// The rich sample's sections: process, sites, events, three threads, then mpi (section 7).
TEST(FormatBadInput, CommunicatorRankOutsideItsSizeIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.mpi.communicators[1].rank = 2;
  EXPECT_EQ(error_of(encoded(p)),
            "corrupt: section 7 (mpi): communicator 4294967280 has rank 2 of 2, sample stride 1");
  p.mpi.communicators[1].rank = -1;
  EXPECT_EQ(error_of(encoded(p)),
            "corrupt: section 7 (mpi): communicator 4294967280 has rank -1 of 2, sample stride 1");
}

TEST(FormatBadInput, CommunicatorOfSizeZeroOrStrideZeroIsCorrupt) {
  // A sample stride of 0 would make every "sequence % stride" in a reader divide by zero.
  Profile p = test::rich_sample_profile();
  p.mpi.communicators[0].stride = 0;
  EXPECT_EQ(error_of(encoded(p)),
            "corrupt: section 7 (mpi): communicator 3 has rank 5 of 12, sample stride 0");
  p = test::rich_sample_profile();
  p.mpi.communicators[1].size = 0;
  p.mpi.communicators[1].rank = 0;
  EXPECT_EQ(error_of(encoded(p)),
            "corrupt: section 7 (mpi): communicator 4294967280 has rank 0 of 0, sample stride 1");
}

TEST(FormatBadInput, CollectiveInstanceInANodeThatDoesNotExistIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.mpi.communicators[0].instances[2].node = 5;  // thread 2 has nodes 0-4
  EXPECT_EQ(
      error_of(encoded(p)),
      "corrupt: communicator 3 instance 576 refers to node 5 of thread 2, which the file does not hold");
  p = test::rich_sample_profile();
  p.mpi.communicators[1].instances[0].thread = 7;  // no thread 7
  EXPECT_EQ(error_of(encoded(p)),
            "corrupt: communicator 4294967280 instance 0 refers to node 5 of thread 7, which the file does "
            "not hold");
}

TEST(FormatBadInput, CollectiveInstanceOfAnUndefinedSiteIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.mpi.communicators[1].instances[1].site = 99;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: communicator 4294967280 instance 1 refers to undefined site 99");
}

TEST(FormatBadInput, CommunicatorDefinedTwiceIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.mpi.communicators[1].id = 3;
  EXPECT_EQ(error_of(encoded(p)), "corrupt: communicator 3 defined twice");
}

TEST(FormatBadInput, UnknownClockPhaseIsCorrupt) {
  Profile p = test::rich_sample_profile();
  p.mpi.clock[1].phase = static_cast<ClockPhase>(2);
  EXPECT_EQ(error_of(encoded(p)), "corrupt: section 7 (mpi): unknown clock phase 2");
}

TEST(FormatBadInput, SecondMpiSectionIsCorrupt) {
  // One process has one MPI identity: a second section would be a spliced or doubly written file.
  Bytes bytes = sample();
  const auto mpi = section(bytes, 7);
  ASSERT_EQ(mpi.type, static_cast<std::uint32_t>(SectionType::mpi));
  const Bytes copy(bytes.begin() + static_cast<std::ptrdiff_t>(mpi.offset),
                   bytes.begin() + static_cast<std::ptrdiff_t>(mpi.crc_offset + 4));
  bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(mpi.crc_offset + 4), copy.begin(), copy.end());
  test::store_uint(bytes, bytes.size() - 4, 4, 8);
  EXPECT_EQ(error_of(bytes), "corrupt: section 8 (mpi): a second mpi section");
}

TEST(FormatBadInput, ClockRecordCountThatCannotFitIsCorrupt) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::mpi);
  writer.record(MpiRecord{.clock_count = 3});
  writer.record(ClockSyncRecord{});
  writer.end_section();
  writer.finish();
  EXPECT_EQ(error_of(sink.bytes()),
            "corrupt: section 1 (mpi): clock records count 3 cannot fit in the 48 bytes that remain");
}

// A chain of nodes deeper than any writer produces would exhaust the stack of a recursive reader
// (the report's tree walks): refused at the format boundary.
TEST(FormatBadInput, NestingDeeperThanTheFormatAllowsIsRefused) {
  Profile profile = test::minimal_profile();
  auto& nodes = profile.threads.at(0).nodes;
  const Node root = nodes.at(0);
  nodes.assign(1, root);
  for (std::uint32_t i = 1; i <= kMaxNestingDepth + 1; ++i) {
    Node n = root;
    n.parent = i - 1;
    nodes.push_back(n);
  }
  EXPECT_NE(error_of(test::encode_profile(profile)).find("nests deeper than 1024 levels"), std::string::npos)
      << error_of(test::encode_profile(profile));
  nodes.pop_back();  // exactly the limit is fine
  EXPECT_EQ(error_of(test::encode_profile(profile)), "(decoded without error)");
}

}  // namespace
}  // namespace parperf::format
