// The profile format round trip: what the runtime's RecordWriter writes, the analysis's reader gives
// back, every field of every record, unchanged.
#include <gtest/gtest.h>

#include <cstdint>
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

// Walks the records of an encoded file with the shared field lists and notes, per record type,
// which fields were non-zero (strings: non-empty) in at least one record.
class FieldCoverage {
 public:
  explicit FieldCoverage(std::span<const std::uint8_t> file) : file_(file) {}

  template <class Record>
  Record next(std::vector<bool>& seen) {
    Record r{};
    std::size_t i = 0;
    fields(r, [&](auto& field) {
      using T = std::decay_t<decltype(field)>;
      if (seen.size() <= i) seen.resize(i + 1, false);
      if constexpr (std::is_same_v<T, Str>) {
        const auto length = static_cast<std::size_t>(test::load_uint(file_, at_, 4));
        field = Str(reinterpret_cast<const char*>(file_.data() + at_ + 4), length);
        at_ += 4 + length;
      } else {
        field = static_cast<T>(test::load_uint(file_, at_, sizeof(T)));
        at_ += sizeof(T);
      }
      if (field != T{}) seen[i] = true;
      ++i;
    });
    return r;
  }
  void seek(std::size_t at) { at_ = at; }
  std::size_t at() const { return at_; }

 private:
  std::span<const std::uint8_t> file_;
  std::size_t at_ = 0;
};

std::string unset_fields(const char* record, const std::vector<bool>& seen,
                         std::size_t allowed_zero = SIZE_MAX) {
  std::string unset;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i] && i != allowed_zero)
      unset += std::string(unset.empty() ? "" : ", ") + record + " field " + std::to_string(i);
  return unset;
}

TEST(FormatRoundTrip, RichSampleSetsEveryFieldOfEveryRecordTypeToANonDefaultValue) {
  // A field left at its default in every record would pass the round trip even if the reader never
  // read it. This walks the file with the field lists of records.hpp, so a field added there and
  // not set in rich_sample_profile() fails here.
  const auto file = encode_profile(rich_sample_profile());
  FieldCoverage walk(file);
  std::vector<bool> process, site, event, thread, node, stats;
  for (const auto& section : test::section_spans(file)) {
    walk.seek(section.payload_offset);
    const auto end = section.crc_offset;
    switch (static_cast<SectionType>(section.type)) {
      case SectionType::process:
        walk.next<ProcessRecord>(process);
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
        }
        break;
    }
    EXPECT_EQ(walk.at(), end) << "section at offset " << section.offset;
  }
  EXPECT_EQ(unset_fields("ProcessRecord", process), "");
  EXPECT_EQ(unset_fields("SiteRecord", site), "");
  EXPECT_EQ(unset_fields("EventRecord", event), "");
  EXPECT_EQ(unset_fields("ThreadRecord", thread), "");
  EXPECT_EQ(unset_fields("NodeRecord", node), "");
  // EventStatsRecord field 1 is `reserved`: written as zero in version 1.
  EXPECT_EQ(unset_fields("EventStatsRecord", stats, 1), "");
  ASSERT_GT(stats.size(), 1u);
  EXPECT_FALSE(stats[1]) << "EventStatsRecord.reserved must be written as zero";
}

TEST(FormatRoundTrip, SectionsMayComeInAnyOrderAndSitesMaySpanSeveralSections) {
  // The runtime may learn of sites while it writes threads; the reader resolves references only
  // once the whole file is read.
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header();
  writer.begin_section(SectionType::thread);
  writer.record(ThreadRecord{});
  writer.record(NodeRecord{.parent = kNoParent, .site = 5});
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

TEST(FormatVersioning, FileOfANewerMinorVersionIsRead) {
  // Minor versions only add section types, which this reader skips; the version it reads is 1.x.
  auto bytes = encode_profile(rich_sample_profile());
  test::store_uint(bytes, 10, 2, 7);
  EXPECT_EQ(first_difference(decode_profile(bytes), rich_sample_profile()), "");
}

TEST(FormatVersioning, SectionOfAnUnknownTypeIsSkipped) {
  // What a version 1.1 file might hold: a section this reader does not know, between known ones.
  const Profile expected = test::minimal_profile();
  const auto plain = encode_profile(expected);
  const std::size_t end = test::end_marker_offset(plain);
  MemorySink extra;
  RecordWriter writer(extra);
  writer.begin_section(static_cast<SectionType>(0x0001'0000));
  writer.record(SiteRecord{.id = 1, .kind = 2, .line = 3, .name = "looks like a site", .file = "but is not one"});
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
