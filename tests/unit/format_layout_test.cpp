// The bytes on disk, as docs/format.md describes them: a file built by hand, field by field with
// explicit widths, must equal what the writer produces; a file in the other byte order must decode
// to the same profile; the checksum is the standard CRC-32C.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <vector>

#include "format/crc32c.hpp"
#include "format/profile_reader.hpp"
#include "format/records.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/profile_values.hpp"

namespace parperf::format {
namespace {

TEST(Crc32c, MatchesTheCastagnoliCheckValue) {
  // The check value of CRC-32C (iSCSI, RFC 3720): a reader in another language can test against it.
  const std::string_view digits = "123456789";
  EXPECT_EQ(crc32c_update(0, digits.data(), digits.size()), 0xe3069283u);
  EXPECT_EQ(crc32c_update(0, nullptr, 0), 0u);
}

TEST(Crc32c, ContinuingOverPiecesEqualsOneRunOverTheWhole) {
  const std::string_view text = "parperf section payload";
  const auto split = crc32c_update(crc32c_update(0, text.data(), 7), text.data() + 7, text.size() - 7);
  EXPECT_EQ(split, crc32c_update(0, text.data(), text.size()));
}

TEST(FormatLayout, RecordSizesAreTheDocumentedOnes) {
  // docs/format.md lists these as the smallest size of each record (all strings empty).
  EXPECT_EQ(min_encoded_size<FileHeader>(), 16u);
  EXPECT_EQ(min_encoded_size<SectionHeader>(), 12u);
  EXPECT_EQ(min_encoded_size<ProcessRecord>(), 96u);
  EXPECT_EQ(min_encoded_size<SiteRecord>(), 52u);
  EXPECT_EQ(min_encoded_size<EventRecord>(), 12u);
  EXPECT_EQ(min_encoded_size<ThreadRecord>(), 48u);
  EXPECT_EQ(min_encoded_size<NodeRecord>(), 128u);
  EXPECT_EQ(min_encoded_size<EventStatsRecord>(), 60u);
  EXPECT_EQ(min_encoded_size<OperationStatsRecord>(), 128u);
  EXPECT_EQ(min_encoded_size<MpiRecord>(), 52u);
  EXPECT_EQ(min_encoded_size<ClockSyncRecord>(), 48u);
  EXPECT_EQ(min_encoded_size<CommunicatorRecord>(), 48u);
  EXPECT_EQ(min_encoded_size<CollectiveInstanceRecord>(), 40u);
}

// Builds a file by hand, as a reader written from docs/format.md would expect it: every integer
// with its width spelled out, little-endian.
class HandBuiltFile {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u16(std::uint16_t v) { little(v, 2); }
  void u32(std::uint32_t v) { little(v, 4); }
  void u64(std::uint64_t v) { little(v, 8); }
  void i32(std::int32_t v) { little(static_cast<std::uint32_t>(v), 4); }
  void i64(std::int64_t v) { little(static_cast<std::uint64_t>(v), 8); }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  void raw(std::initializer_list<std::uint8_t> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }

  void begin_section(std::uint32_t type) {
    section_ = bytes_.size();
    u32(type);
    u64(0);  // the length, filled in by end_section
  }
  void end_section() {
    const std::size_t payload = section_ + 12;
    const std::uint64_t length = bytes_.size() - payload;
    for (std::size_t i = 0; i < 8; ++i)
      bytes_[section_ + 4 + i] = static_cast<std::uint8_t>(length >> (8 * i));
    // CRC-32C over the four type bytes, then the payload.
    const auto crc = crc32c_update(crc32c_update(0, &bytes_[section_], 4), bytes_.data() + payload, length);
    u32(crc);
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  void little(std::uint64_t v, std::size_t width) {
    for (std::size_t i = 0; i < width; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> bytes_;
  std::size_t section_ = 0;
};

// The example of docs/format.md: rank 1 of a hybrid MPI + OpenMP run, whose one thread is an OpenMP
// worker flushed while it was inside a parallel region. Its root is a context node (the worker only
// joined the region); the region's node is open and holds a user event's and the region's join
// barrier's statistics. The mpi section holds one clock exchange and one communicator with one
// sampled collective. Every other number is distinct, so a field read in its neighbour's place shows.
Profile small_profile() {
  Profile p;
  p.process =
      ProcessInfo{1, 2, 3, 4, 5, EndReason::flush, 6, ClockSource::monotonic, 1, 7, 8, 9, "h", "c d", "v"};
  p.process.openmp_runtime = "omp 5";
  p.threads_not_measured = 67;
  p.sites = {
      parperf::test::make_site(10, 1, 11, "main", "m.c"),
      parperf::test::make_site(12, static_cast<std::uint32_t>(SiteKind::omp_parallel), 0, "parallel", "",
                               0x1a2c, 0x1b80, kNoParent, "a.out"),
      parperf::test::make_site(13, static_cast<std::uint32_t>(SiteKind::omp_join_barrier), 0,
                               "implicit barrier", "", 0x1a2c, 0, 12, "a.out"),
      parperf::test::make_site(63, static_cast<std::uint32_t>(SiteKind::mpi_reduction), 0, "MPI_Allreduce",
                               "", 0x1a40, 0, kNoParent, "a.out"),
  };
  p.events = {Event{14, "e", ""}};
  Node root;
  root.site = 10;
  root.set_flag(format::kNodeContext, true);
  Node region;
  region.parent = 0;
  region.site = 12;
  region.value = -1;
  region.count = 19;
  region.sum_ns = 20;
  region.min_ns = 21;
  region.max_ns = 22;
  region.last_begin_ns = 23;
  region.open_ns = 24;
  region.set_flag(format::kNodeOpen, true);
  region.os_user_self_ns = 25;
  region.os_sys_self_ns = 26;
  region.iterations.count = 27;
  region.iterations.sum_ns = 28;
  region.iterations.min_ns = 29;
  region.iterations.max_ns = 30;
  region.events = {parperf::test::make_event_stats(14, 31, 32, 33, 34, 35, 36, "x")};
  OperationStats barrier;
  barrier.site = 13;
  barrier.count = 37;
  barrier.sum_ns = 38;
  barrier.min_ns = 39;
  barrier.max_ns = 40;
  barrier.wait_ns = 41;
  barrier.wait_max_ns = 42;
  barrier.sync_ns = 43;
  barrier.sync_max_ns = 44;
  barrier.bytes = 45;
  barrier.partner_min = 46;
  barrier.partner_max = 47;
  barrier.partner_set = 48;
  barrier.overlap_ns = 49;
  barrier.last_begin_ns = 50;
  barrier.last_end_ns = 51;
  region.operations = {barrier};
  Thread t;
  t.index = 0;
  t.ended = true;
  t.os_tid = 15;
  t.start_ns = 16;
  t.end_ns = 17;
  t.kind = ThreadKind::openmp_worker;
  t.parked_ns = 18;
  t.nodes = {root, region};
  p.threads = {t};
  p.has_mpi = true;
  p.mpi.world_rank = 1;
  p.mpi.world_size = 2;
  p.mpi.thread_level = 1;
  p.mpi.latency_ns = 52;
  p.mpi.bandwidth_bytes_per_s = 53;
  p.mpi.library = "mpi";
  p.mpi.clock = {parperf::test::make_clock_sync(ClockPhase::init, 1, 54, 55, 56, 57)};
  format::Communicator world = parperf::test::make_communicator(58, 2, 1, 59, 60, 61, 62);
  world.instances = {CollectiveInstance{64, 65, 66, 0, 1, 63}};
  p.mpi.communicators = {world};
  return p;
}

std::vector<std::uint8_t> small_profile_by_hand() {
  HandBuiltFile f;
  f.raw({0x89, 'P', 'P', 'F', '\r', '\n', 0x1a, '\n'});  // magic
  f.u16(3), f.u16(8);                                    // version 3.8
  f.u8(1), f.u8(8), f.u8(8), f.u8(0);                    // little-endian, 8-byte integers and times, reserved

  f.begin_section(1);                      // process
  f.i64(1), f.i64(2), f.i64(3);            // rank, world size, pid
  f.u64(4), f.u64(5);                      // start (unix ns), duration
  f.u32(1), f.u32(6), f.u32(1), f.u32(1);  // end reason flush, signal, clock monotonic, thread count
  f.u64(7), f.u64(8), f.u64(9);            // ticks per second, max depth, dropped intervals
  f.str("h"), f.str("c d"), f.str("v");    // hostname, command line, parperf version
  f.str("omp 5");                          // OpenMP runtime
  f.end_section();

  f.begin_section(2);  // sites: id, kind, line, address, end address, parent, reserved, name, file, module
  f.u32(10), f.u32(1), f.i64(11), f.u64(0), f.u64(0), f.u32(0xffffffff), f.u32(0);  // user site: no address
  f.str("main"), f.str("m.c"), f.str("");
  f.u32(12), f.u32(16), f.i64(0), f.u64(0x1a2c), f.u64(0x1b80), f.u32(0xffffffff), f.u32(0);  // omp_parallel
  f.str("parallel"), f.str(""), f.str("a.out");
  f.u32(13), f.u32(34), f.i64(0), f.u64(0x1a2c), f.u64(0), f.u32(12), f.u32(0);  // its omp_join_barrier
  f.str("implicit barrier"), f.str(""), f.str("a.out");
  f.u32(63), f.u32(82), f.i64(0), f.u64(0x1a40), f.u64(0), f.u32(0xffffffff), f.u32(0);  // mpi_reduction
  f.str("MPI_Allreduce"), f.str(""), f.str("a.out");
  f.end_section();

  f.begin_section(3);  // events
  f.u32(14), f.str("e"), f.str("");
  f.end_section();

  f.begin_section(4);                                   // thread
  f.u32(0), f.u32(1), f.i64(15), f.u64(16), f.u64(17);  // index, ended, os tid, start, end
  f.u32(2), f.u32(0), f.u64(18);                        // kind OpenMP worker, reserved, parked
  f.u32(0xffffffff), f.u32(10), f.i64(0);               // node 0: no parent, site, value
  for (int i = 0; i < 12; ++i) f.u64(0);                // count .. iteration max: a context node
  f.u32(2), f.u32(0), f.u32(0), f.u32(0);               // flags context, no events, no operations, reserved
  f.u32(0), f.u32(12), f.i64(-1);                       // node 1: parent 0, site, value
  for (std::uint64_t v = 19; v <= 30; ++v) f.u64(v);    // count .. iteration max
  f.u32(1), f.u32(1), f.u32(1), f.u32(0);               // flags open, 1 event, 1 operation, reserved
  f.u32(14), f.u32(0);                                  // event statistics: event, reserved
  for (std::uint64_t v = 31; v <= 36; ++v) f.u64(v);    // starts .. max
  f.str("x");
  f.u32(13), f.u32(0);                                // operation statistics: site, reserved
  for (std::uint64_t v = 37; v <= 45; ++v) f.u64(v);  // count .. bytes
  f.i64(46), f.i64(47);                               // partner min, partner max
  for (std::uint64_t v = 48; v <= 51; ++v) f.u64(v);  // partner set, overlap, last begin, last end
  f.end_section();

  f.begin_section(5);                                 // mpi
  f.i64(1), f.i64(2), f.i32(1);                       // world rank, world size, thread level (funneled)
  f.u32(1), f.u32(1), f.u32(0);                       // 1 clock record, 1 communicator, reserved
  f.u64(52), f.u64(53), f.str("mpi");                 // latency, bandwidth, library
  f.u32(0), f.u32(0), f.i64(1);                       // clock: phase init, reserved, rank
  for (std::uint64_t v = 54; v <= 57; ++v) f.u64(v);  // send, receive, master, round trip
  f.u32(58), f.u32(2), f.i64(1), f.u64(59);           // communicator: id, size, rank, members hash
  f.u32(60), f.u32(1), f.u64(61), f.u64(62);          // ordinal, 1 instance, collectives, stride
  f.u64(64), f.u64(65), f.u64(66);                    // instance: sequence, arrive, leave
  f.u32(0), f.u32(1), f.u32(63), f.u32(0);            // thread, node, site, reserved
  f.end_section();

  f.begin_section(6);  // limits (3.1)
  f.u64(67);           // threads not measured
  f.end_section();

  f.u32(0x21444e45), f.u32(6);  // "END!", six sections
  return f.bytes();
}

TEST(FormatLayout, WriterProducesTheDocumentedBytes) {
  if constexpr (std::endian::native != std::endian::little)
    GTEST_SKIP() << "the writer writes host byte order";
  const auto by_hand = small_profile_by_hand();
  EXPECT_EQ(by_hand.size(), 1174u + 24u);  // 3.1's limits section: header 12, record 8, checksum 4
  EXPECT_EQ(test::encode_profile(small_profile()), by_hand);
}

TEST(FormatLayout, ReaderDecodesTheDocumentedBytes) {
  EXPECT_EQ(test::first_difference(decode_profile(small_profile_by_hand()), small_profile()), "");
}

// A second writer, written from the field lists: integers in a chosen byte order, checksums over
// the bytes as stored. The runtime only writes its host's order; this one writes the other.
class OrderedWriter {
 public:
  explicit OrderedWriter(bool big_endian) : big_(big_endian) {}

  void file_header() {
    FileHeader header;
    header.byte_order = big_ ? kBigEndian : kLittleEndian;
    fields(header, [this](auto& field) { integer(field); });
  }
  void begin_section(SectionType type) {
    section_ = bytes_.size();
    integer(static_cast<std::uint32_t>(type));
    integer(std::uint64_t{0});
  }
  void end_section() {
    const std::size_t payload = section_ + 12;
    const std::uint64_t length = bytes_.size() - payload;
    for (std::size_t i = 0; i < 8; ++i)
      bytes_[section_ + 4 + i] = static_cast<std::uint8_t>(length >> (8 * (big_ ? 7 - i : i)));
    const auto crc = crc32c_update(crc32c_update(0, &bytes_[section_], 4), bytes_.data() + payload, length);
    integer(crc);
    ++sections_;
  }
  template <class Record>
  void record(const Record& r) {
    Record copy = r;
    fields(copy, [this](auto& field) {
      using T = std::decay_t<decltype(field)>;
      if constexpr (is_text_v<T>) {
        integer(static_cast<std::uint32_t>(field.size()));
        bytes_.insert(bytes_.end(), field.begin(), field.end());
      } else if constexpr (std::is_enum_v<T>) {
        integer(static_cast<std::underlying_type_t<T>>(field));
      } else {
        integer(field);
      }
    });
  }
  void finish() {
    integer(kEndMarker);
    integer(sections_);
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  template <class T>
  void integer(T value) {
    const auto v = static_cast<std::make_unsigned_t<T>>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t shift = 8 * (big_ ? sizeof(T) - 1 - i : i);
      bytes_.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> shift));
    }
  }
  bool big_;
  std::vector<std::uint8_t> bytes_;
  std::size_t section_ = 0;
  std::uint32_t sections_ = 0;
};

std::vector<std::uint8_t> encode_in_byte_order(const Profile& profile, bool big_endian) {
  OrderedWriter writer(big_endian);
  test::write_records(writer, profile);
  return writer.bytes();
}

constexpr bool kHostIsBigEndian = std::endian::native == std::endian::big;

TEST(FormatByteOrder, SecondWriterInHostOrderProducesTheRuntimeWritersBytes) {
  // Shows that the second writer differs from the runtime's only in byte order, so the tests below
  // exercise the reader's conversion and nothing else.
  const Profile p = test::rich_sample_profile();
  EXPECT_EQ(encode_in_byte_order(p, kHostIsBigEndian), test::encode_profile(p));
}

TEST(FormatByteOrder, BigEndianFileDecodesToTheSameProfile) {
  const Profile p = test::rich_sample_profile();
  const auto big = encode_in_byte_order(p, true);
  ASSERT_EQ(big[12], kBigEndian);
  EXPECT_EQ(big[8], 0);
  EXPECT_EQ(big[9], 3) << "version major 3, most significant byte first";
  EXPECT_EQ(test::first_difference(decode_profile(big), p), "");
}

TEST(FormatByteOrder, LittleEndianFileDecodesToTheSameProfile) {
  const Profile p = test::rich_sample_profile();
  EXPECT_EQ(test::first_difference(decode_profile(encode_in_byte_order(p, false)), p), "");
}

TEST(FormatByteOrder, FileInTheOtherByteOrderIsStillChecksummed) {
  auto bytes = encode_in_byte_order(test::rich_sample_profile(), !kHostIsBigEndian);
  const auto sites = test::section_spans(bytes).at(1);
  bytes[sites.payload_offset + 5] ^= 0x10;
  try {
    decode_profile(bytes);
    FAIL() << "a damaged section in a foreign-order file was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "corrupt: checksum mismatch in section 2 (sites)");
  }
}

TEST(FormatByteOrder, FileInTheOtherByteOrderIsValidatedLikeANativeOne) {
  // Conversion happens before validation: a reference to an undefined site is found either way.
  Profile p = test::rich_sample_profile();
  p.threads[1].nodes[2].site = 99;
  try {
    decode_profile(encode_in_byte_order(p, !kHostIsBigEndian));
    FAIL() << "a node naming an undefined site was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "corrupt: thread 2 node 2 refers to undefined site 99");
  }
}

}  // namespace
}  // namespace parperf::format
