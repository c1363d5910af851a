// The event trace file (format/trace_records.hpp, trace_events.hpp, trace_file.hpp): every event
// kind survives encoding, compression, writing and reading; a trace cut short is read up to its last
// complete block and says where it ends; damage is named, never trusted.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/profile_reader.hpp"
#include "format/trace_file.hpp"

namespace parperf::format {
namespace {

constexpr std::uint64_t kBase = 1'000'000'000'000ull;

// One event of every kind with the widest values, then a thread's usual rhythm.
std::vector<TraceEvent> every_kind() {
  std::vector<TraceEvent> events;
  auto add = [&](TraceEvent e) { events.push_back(std::move(e)); };
  add({.kind = TraceEventKind::enter, .ticks = kBase + 10, .site = 7, .value = -42});
  add({.kind = TraceEventKind::task, .ticks = kBase + 10, .value = std::int64_t{0x3ffff} << 32 | 0xffffffff});
  add({.kind = TraceEventKind::operation,
       .ticks = kBase + 20,
       .site = 0xffffffffu,
       .duration = std::numeric_limits<std::uint64_t>::max(),
       .wait = 5,
       .sync = 6,
       .bytes = 1ull << 40,
       .partner = 3,
       .communicator = 2,
       .match = -77});
  add({.kind = TraceEventKind::operation, .ticks = kBase + 20, .site = 9, .duration = 1, .partner = -1});
  add({.kind = TraceEventKind::event_start, .ticks = kBase + 30, .event = 2, .text = "step 1 of ∑ 数据"});
  add({.kind = TraceEventKind::event_end, .ticks = kBase + 31, .event = 2});
  add({.kind = TraceEventKind::event_atomic, .ticks = kBase + 40, .event = 3, .text = ""});
  add({.kind = TraceEventKind::iteration, .ticks = kBase + 50, .site = 7});
  add({.kind = TraceEventKind::recording_off, .ticks = kBase + 60});
  add({.kind = TraceEventKind::recording_on, .ticks = kBase + 1'000'000});
  add({.kind = TraceEventKind::writer_wait, .ticks = kBase + 1'000'001, .duration = 123'456});
  add({.kind = TraceEventKind::leave, .ticks = kBase + 1'000'002, .site = 7});
  for (std::uint32_t i = 0; i < 1000; ++i) {
    add({.kind = TraceEventKind::enter, .ticks = kBase + 2'000'000 + 100 * i, .site = 11, .value = i});
    add({.kind = TraceEventKind::leave, .ticks = kBase + 2'000'050 + 100 * i, .site = 11});
  }
  return events;
}

// Encodes `events` into one block's bytes.
std::vector<std::uint8_t> encode(const std::vector<TraceEvent>& events, std::uint64_t base) {
  std::vector<std::uint8_t> buffer(1 << 20);
  TraceBlockEncoder encoder(buffer.data(), buffer.size(), base);
  for (const TraceEvent& e : events) {
    EXPECT_TRUE(encoder.append(e));
  }
  return encoded_block(buffer.data(), buffer.size(), encoder);
}

// A trace of two threads, two blocks each (the second block of thread 0 compressed), and the clock.
std::vector<std::uint8_t> sample_trace(const std::vector<TraceEvent>& events, bool with_clock = true,
                                       std::int64_t rank = 3) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header(trace_header());
  TraceProcessRecord process;
  process.rank = rank;
  process.pid = 4242;
  process.origin_ticks = kBase;
  process.ticks_per_second = 2'400'000'000ull;
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::process));
  writer.record(process);
  writer.end_section();
  for (std::uint32_t thread = 0; thread < 2; ++thread) {
    for (std::uint64_t sequence = 0; sequence < 2; ++sequence) {
      const std::vector<std::uint8_t> raw = encode(events, kBase);
      TraceBlockRecord block;
      block.thread = thread;
      block.sequence = sequence;
      block.base_ticks = kBase;
      block.event_count = static_cast<std::uint32_t>(events.size());
      block.raw_bytes = static_cast<std::uint32_t>(raw.size());
      std::vector<std::uint8_t> stored = raw;
      if (sequence == 1) {
        stored = compress_trace_events(raw);
        EXPECT_FALSE(stored.empty()) << "a thread's repetitive events compress";
        block.compression = static_cast<std::uint32_t>(TraceCompression::zstd);
      }
      block.encoded_bytes = static_cast<std::uint32_t>(stored.size());
      write_trace_block(writer, block, stored);
    }
  }
  if (with_clock) {
    TraceClockRecord clock;
    clock.ticks_per_second = 2'400'000'123ull;
    clock.end_ticks = kBase + 9'000'000;
    clock.lost_events = 5;
    clock.writer_wait_ns = 77;
    writer.begin_section(static_cast<std::uint32_t>(TraceSection::clock));
    writer.record(clock);
    writer.end_section();
  }
  writer.finish();
  return sink.bytes();
}

TEST(TraceFormat, EveryEventKindSurvivesEncodingCompressionAndReading) {
  const std::vector<TraceEvent> events = every_kind();
  const TraceFile trace = decode_trace(sample_trace(events));
  EXPECT_EQ(trace.process.rank, 3);
  EXPECT_EQ(trace.process.pid, 4242);
  ASSERT_TRUE(trace.clock.has_value());
  EXPECT_EQ(trace.clock->lost_events, 5u);
  EXPECT_EQ(trace.clock->writer_wait_ns, 77u);
  EXPECT_TRUE(trace.cut_short.empty()) << trace.cut_short;
  ASSERT_EQ(trace.blocks.size(), 4u);
  for (const TraceBlock& block : trace.blocks) {
    ASSERT_EQ(block.events.size(), events.size());
    for (std::size_t i = 0; i < events.size(); ++i)
      ASSERT_EQ(block.events[i], events[i])
          << "thread " << block.header.thread << " block " << block.header.sequence << " event " << i;
  }
}

TEST(TraceFormat, AThreadsUsualEventsTakeAFewBytesEach) {
  // 2000 enter/leave events 50 ticks apart at one site: kind, a 1-byte delta and a 1-byte site,
  // plus the value of an entry.
  const std::vector<TraceEvent> all = every_kind();
  const std::vector<TraceEvent> events(all.begin() + 12, all.end());
  const std::vector<std::uint8_t> raw = encode(events, kBase + 2'000'000);
  EXPECT_LE(static_cast<double>(raw.size()) / static_cast<double>(events.size()), 4.0);
  const std::vector<std::uint8_t> compressed = compress_trace_events(raw);
  ASSERT_FALSE(compressed.empty());
  // What remains is mostly the entries' values, which count up and repeat nothing.
  EXPECT_LE(static_cast<double>(compressed.size()) / static_cast<double>(events.size()), 1.1)
      << "the same site and rhythm over and over compresses to about a byte an event";
}

TEST(TraceFormat, ABlockThatIsFullRefusesTheEventAndKeepsWhatItHas) {
  std::uint8_t buffer[TraceBlockEncoder::kMinBufferBytes];
  TraceBlockEncoder encoder(buffer, sizeof buffer, 0);
  std::uint32_t accepted = 0;
  while (encoder.enter(accepted, 1, 0)) ++accepted;
  EXPECT_GE(accepted, 3u);
  EXPECT_EQ(encoder.event_count(), accepted);
  EXPECT_FALSE(encoder.user_event(TraceEventKind::event_start, 0, 1, std::string(1000, 'x')));
  const std::vector<std::uint8_t> block = encoded_block(buffer, sizeof buffer, encoder);
  EXPECT_EQ(decode_trace_events(block, 0, accepted).size(), accepted);
  // The smallest buffer takes the largest event.
  TraceBlockEncoder smallest(buffer, sizeof buffer, 0);
  EXPECT_TRUE(smallest.operation({.start = ~0ull,
                                  .site = ~0u,
                                  .duration = ~0ull,
                                  .wait = ~0ull,
                                  .sync = ~0ull,
                                  .bytes = ~0ull,
                                  .partner = INT64_MIN,
                                  .communicator = ~0u,
                                  .match = INT64_MIN}));
}

TEST(TraceFormat, ATraceCutShortIsReadUpToItsLastCompleteBlockAndSaysWhereItEnds) {
  const std::vector<TraceEvent> events = every_kind();
  const std::vector<std::uint8_t> whole = sample_trace(events, false);
  // Cut in the middle of the third block: two complete blocks remain.
  const TraceFile complete = decode_trace(whole);
  ASSERT_EQ(complete.blocks.size(), 4u);
  const std::size_t cut = complete.blocks[2].offset + 40;
  const TraceFile trace = decode_trace(std::span(whole.data(), cut));
  EXPECT_EQ(trace.blocks.size(), 2u);
  EXPECT_FALSE(trace.clock.has_value());
  EXPECT_NE(trace.cut_short.find("the file ends inside section 4 (offset " +
                                 std::to_string(complete.blocks[2].offset) + ")"),
            std::string::npos)
      << trace.cut_short;
  EXPECT_NE(trace.cut_short.find("2 complete blocks were read"), std::string::npos) << trace.cut_short;
  // Cut just before the end marker: every block is there, the trace says it was not closed.
  const TraceFile unclosed = decode_trace(std::span(whole.data(), whole.size() - 8));
  EXPECT_EQ(unclosed.blocks.size(), 4u);
  EXPECT_NE(unclosed.cut_short.find("without its end marker"), std::string::npos) << unclosed.cut_short;
}

// A program killed while its trace is written leaves the last section with the writer's placeholder
// length (0) and as many of its bytes as were written; a trace cut anywhere after its first block
// must be read up to its last complete block and say that it was cut, never that it is corrupt.
TEST(TraceFormat, ATraceCutAnywhereIsReadUpToItsLastCompleteBlock) {
  const std::vector<std::uint8_t> whole = sample_trace(every_kind(), false);
  const TraceFile complete = decode_trace(whole);
  const std::size_t blocks = complete.blocks.size();
  ASSERT_EQ(blocks, 4u);
  std::vector<std::size_t> section_end(blocks);
  for (std::size_t i = 0; i < blocks; ++i) {
    std::uint64_t length = 0;
    std::memcpy(&length, whole.data() + complete.blocks[i].offset + 4, sizeof length);
    section_end[i] = complete.blocks[i].offset + 12 + static_cast<std::size_t>(length) + 4;
  }
  const auto complete_before = [&](std::size_t cut) {
    std::size_t n = 0;
    while (n < blocks && section_end[n] <= cut) ++n;
    return n;
  };
  int failures = 0;
  const auto check = [&](std::span<const std::uint8_t> bytes, std::size_t expected, const std::string& what) {
    if (failures >= 5) return;
    try {
      const TraceFile trace = decode_trace(bytes, /*events=*/false);  // records and checksums: fast
      if (trace.blocks.size() != expected || trace.cut_short.empty()) {
        ++failures;
        ADD_FAILURE() << what << ": " << trace.blocks.size() << " blocks read, expected " << expected
                      << " and a note that the trace was cut; note: '" << trace.cut_short << "'";
      }
    } catch (const FormatError& e) {
      ++failures;
      ADD_FAILURE() << what << ": refused (" << e.what() << "), expected its " << expected
                    << " complete blocks";
    }
  };
  // Every section's length written, the file cut at any byte after the first block began.
  for (std::size_t cut = complete.blocks[0].offset; cut < whole.size(); ++cut)
    check(std::span(whole.data(), cut), complete_before(cut),
          "the trace cut at byte " + std::to_string(cut) + " of " + std::to_string(whole.size()));
  // Killed inside block i: its length still the placeholder, any number of its bytes written.
  for (std::size_t i = 0; i < blocks; ++i) {
    std::vector<std::uint8_t> killed(whole.begin(),
                                     whole.begin() + static_cast<std::ptrdiff_t>(section_end[i]));
    std::memset(killed.data() + complete.blocks[i].offset + 4, 0, sizeof(std::uint64_t));
    for (std::size_t cut = complete.blocks[i].offset + 1; cut <= killed.size(); ++cut)
      check(std::span(killed.data(), cut), i,
            "the trace killed while writing block " + std::to_string(i + 1) + ", cut at byte " +
                std::to_string(cut));
  }
}

TEST(TraceFormat, DamageIsNamedWithItsSectionAndOffset) {
  std::vector<std::uint8_t> bytes = sample_trace(every_kind());
  const TraceFile trace = decode_trace(bytes);
  bytes[trace.blocks[1].offset + 40] ^= 0x10;  // inside the second block's events
  try {
    decode_trace(bytes);
    FAIL() << "a flipped bit in a block was accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "corrupt: checksum mismatch in section 3 (offset " +
                                         std::to_string(trace.blocks[1].offset) + ")");
  }
}

TEST(TraceFormat, EventsThatDoNotDecodeAreRefusedNamingTheEvent) {
  std::vector<std::uint8_t> raw = encode(every_kind(), kBase);
  const auto count = static_cast<std::uint32_t>(every_kind().size());
  const std::uint8_t first = raw[0];
  raw[0] = 0x1d;  // the first event's kind byte: kind 13, a 1-byte time
  try {
    decode_trace_events(raw, kBase, count);
    FAIL() << "an unknown event kind was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "event 0: unknown kind 13");
  }
  raw[0] = (first & 0x0f) | 9 << 4;
  try {
    decode_trace_events(raw, kBase, count);
    FAIL() << "a 9-byte time was accepted";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "event 0: a time delta of 9 bytes (1 to 8 are possible)");
  }
  raw[0] = first;
  EXPECT_THROW(decode_trace_events(std::span(raw.data(), count + 2), kBase, count), FormatError)
      << "time stamps that run past the block";
  const std::vector<std::uint8_t> one =
      encode({{.kind = TraceEventKind::event_start, .ticks = 5, .text = "abc"}}, 0);
  EXPECT_THROW(decode_trace_events(std::span(one.data(), one.size() - 1), 0, 1), FormatError)
      << "a text that runs past the block";
  EXPECT_THROW(decode_trace_events(one, 0, 2), FormatError) << "more events claimed than the bytes hold";
}

// A parallel analysis's share arrives as bytes: indexed the same way, held by the index, its blocks
// decoded when read and its errors naming the file the bytes stand for.
TEST(TraceFormat, AnIndexOfBytesInMemoryDecodesBlockByBlockAndNamesItsFile) {
  const std::vector<TraceEvent> events = every_kind();
  std::vector<std::uint8_t> bytes = sample_trace(events);
  const TraceFile index = open_trace_index("run/trace.3.ppt (sent)", std::move(bytes));
  ASSERT_EQ(index.blocks.size(), 4u);
  for (const TraceBlock& block : index.blocks) {
    EXPECT_TRUE(block.events.empty()) << "an index holds no events";
    EXPECT_EQ(events_of(index, block), events) << "block " << block.header.sequence;
  }
  TraceBlock wrong = index.blocks[0];
  wrong.header.event_count += 1;
  std::string refused = "(decoded)";
  try {
    events_of(index, wrong);
  } catch (const FormatError& e) {
    refused = e.what();
  }
  EXPECT_NE(refused.find("run/trace.3.ppt (sent): the block at offset"), std::string::npos)
      << "a block claiming more events than it holds: " << refused;
  std::vector<std::uint8_t> truncated = sample_trace(events);
  truncated.resize(10);
  EXPECT_THROW(open_trace_index("run/trace.4.ppt", std::move(truncated)), FormatError)
      << "ten bytes are no trace";
}

TEST(TraceFormat, AnIndexKeepsTheEventsInTheFileAndDecodesThemBlockByBlock) {
  const std::vector<TraceEvent> events = every_kind();
  const std::vector<std::uint8_t> bytes = sample_trace(events);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("parperf-index-" + std::to_string(getpid()) + ".ppt");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  const TraceFile index = open_trace_index(path);
  ASSERT_EQ(index.blocks.size(), 4u);
  for (const TraceBlock& block : index.blocks) {
    EXPECT_TRUE(block.events.empty()) << "an index holds no events";
    EXPECT_EQ(events_of(index, block), events) << "block " << block.header.sequence;
    BlockEvents one_by_one(index, block);
    std::vector<TraceEvent> read;
    TraceEvent e;
    e.text = "left from an earlier event";
    while (one_by_one.next(e)) read.push_back(e);
    EXPECT_EQ(read, events) << "block " << block.header.sequence << ", read event by event";
  }
  // A block whose stored events do not decode, under a checksum that matches (a writer's bug, not
  // damage): refused when it is read, naming the file and the block.
  TraceBlock wrong = index.blocks[0];
  wrong.header.event_count += 1;
  try {
    events_of(index, wrong);
    FAIL() << "a block claiming more events than it holds was decoded";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": the block at offset"), std::string::npos)
        << e.what();
  }
  try {
    BlockEvents one_by_one(index, wrong);
    TraceEvent e;
    while (one_by_one.next(e)) {
    }
    FAIL() << "a block claiming more events than it holds was read event by event";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": the block at offset"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(TraceFormat, ATraceOfTheRowFormatOfVersion1IsRefusedNamingItsVersion) {
  std::vector<std::uint8_t> bytes = sample_trace(every_kind());
  bytes[8] = 1;  // the major version, a little-endian u16 after the 8 magic bytes (docs/format.md)
  bytes[9] = 0;
  bytes[10] = 0;  // and the minor one
  bytes[11] = 0;
  try {
    decode_trace(bytes);
    FAIL() << "a version 1 trace was read";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "trace format version 1.0 is not supported (this parperf reads version 2.x)");
  }
}

TEST(TraceFormat, AVersion21TraceReadsAsOneWhoseTasksHaveNoIds) {
  // 2.1 had no task events; its events read as they were written.
  std::vector<TraceEvent> events = every_kind();
  std::erase_if(events, [](const TraceEvent& e) { return e.kind == TraceEventKind::task; });
  std::vector<std::uint8_t> bytes = sample_trace(events);
  bytes[10] = 1;  // the minor version, a little-endian u16 after the major one
  bytes[11] = 0;
  const TraceFile trace = decode_trace(bytes);
  ASSERT_EQ(trace.blocks.size(), 4u);
  for (const TraceBlock& block : trace.blocks) EXPECT_EQ(block.events, events);
}

// A rank is an MPI rank or a PE number, a C int: the analyses keep it in 32 bits, and a trace that
// claims another is damaged rather than read as some other rank.
TEST(TraceFormat, ARankThatNoProcessCanHaveIsRefusedNamingIt) {
  for (const std::int64_t rank : {std::int64_t{-1}, std::int64_t{2147483648}, std::int64_t{1} << 62}) {
    try {
      decode_trace(sample_trace(every_kind(), true, rank));
      FAIL() << "rank " << rank << " was accepted";
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(
                    "corrupt: rank " + std::to_string(rank) + " in the process record in section 1", 0),
                0u)
          << e.what();
    }
  }
  EXPECT_EQ(decode_trace(sample_trace(every_kind(), true, 2147483647)).process.rank, 2147483647);
}

TEST(TraceFormat, AForeignOrEmptyFileIsRefused) {
  EXPECT_THROW(decode_trace({}), FormatError);
  const std::vector<std::uint8_t> profile_magic = {0x89, 'P', 'P', 'F', '\r', '\n', 0x1a, '\n', 3, 0};
  try {
    decode_trace(profile_magic);
    FAIL() << "a profile was read as a trace";
  } catch (const FormatError& e) {
    EXPECT_STREQ(e.what(), "not a parperf event trace (unrecognised magic bytes)");
  }
}

}  // namespace
}  // namespace parperf::format
