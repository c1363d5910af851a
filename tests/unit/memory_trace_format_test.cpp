// The memory trace file (`.ppm`): the writer/reader round trip, the layout, and the reader on
// truncated, corrupted and foreign input (always a FormatError that says what is wrong).
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include "format/memory_sink.hpp"
#include "format/memory_trace_writer.hpp"
#include "format/record_writer.hpp"
#include "unit/memory_trace_test_support.hpp"

namespace parperf::test {
namespace {

using format::FormatError;
using format::MemoryAccessRecord;
using format::MemoryTraceSection;

MemoryAccessRecord access(std::uint64_t address, std::uint16_t thread, std::uint8_t size, bool store,
                          std::uint32_t module = format::kNoModule, std::uint64_t pc = 0) {
  MemoryAccessRecord r;
  r.address = address;
  r.pc = pc;
  r.module = module;
  r.thread = thread;
  r.size = size;
  r.flags = store ? format::kAccessStore : 0;
  return r;
}

bool same(const MemoryAccessRecord& a, const MemoryAccessRecord& b) {
  return a.address == b.address && a.pc == b.pc && a.module == b.module && a.thread == b.thread &&
         a.size == b.size && a.flags == b.flags;
}

std::vector<std::uint8_t> file_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

CollectedTrace read_bytes(const std::vector<std::uint8_t>& bytes) {
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  CollectedTrace trace;
  format::read_memory_trace(in, "trace.ppm", trace);
  return trace;
}

std::string error_of(const std::vector<std::uint8_t>& bytes) {
  try {
    read_bytes(bytes);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "(no error)";
}

// 10 accesses of 3 threads in sections of 3 records: 4 access sections.
std::vector<MemoryAccessRecord> sample_accesses() {
  std::vector<MemoryAccessRecord> v;
  for (std::uint64_t i = 0; i < 10; ++i)
    v.push_back(access(0x1000 + 8 * i, static_cast<std::uint16_t>(i % 3), i % 2 ? 8 : 4, i % 4 == 0,
                       i % 5 == 0 ? 7u : format::kNoModule, i % 5 == 0 ? 0x400 + i : 0));
  return v;
}

void write_sample(const std::filesystem::path& path) {
  format::MemoryTraceWriter writer(path, 3);
  writer.define_module(7, "/usr/bin/prog");
  writer.define_module(0, "/lib/libc.so.6");
  writer.process().pid = 4242;
  writer.process().rank = 1;
  writer.process().dropped = 5;
  writer.process().command_line = "prog --size 10";
  writer.process().source = "text";
  for (const auto& a : sample_accesses()) writer.add(a);
  writer.finish();
}

// A file built record by record, for shapes the checking writer refuses to make.
std::vector<std::uint8_t> craft(const std::function<void(format::RecordWriter<format::MemorySink>&)>& body) {
  format::MemorySink sink;
  format::RecordWriter<format::MemorySink> w(sink);
  w.file_header(format::memory_trace_header());
  body(w);
  w.finish();
  return sink.bytes();
}

void process_section(format::RecordWriter<format::MemorySink>& w) {
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::process));
  w.record(format::MemoryTraceProcessRecord{0, 1, 0, "prog", "test"});
  w.end_section();
}

void accesses_section(format::RecordWriter<format::MemorySink>& w, const MemoryAccessRecord& r) {
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::accesses));
  w.record(r);
  w.end_section();
}

TEST(MemoryTraceFormat, RoundTripKeepsEveryFieldAndTheOrder) {
  ScratchFile file;
  write_sample(file.path());
  CollectedTrace trace;
  format::read_memory_trace(file.path(), trace);

  ASSERT_EQ(trace.processes.size(), 1u);
  EXPECT_EQ(trace.processes[0].pid, 4242);
  EXPECT_EQ(trace.processes[0].rank, 1);
  EXPECT_EQ(trace.processes[0].dropped, 5u);
  EXPECT_EQ(trace.processes[0].command_line, "prog --size 10");
  EXPECT_EQ(trace.processes[0].source, "text");
  ASSERT_EQ(trace.all_modules.size(), 2u);
  EXPECT_EQ(trace.all_modules[0].id, 7u);
  EXPECT_EQ(trace.all_modules[0].path, "/usr/bin/prog");
  EXPECT_EQ(trace.all_modules[1].id, 0u);

  const auto expected = sample_accesses();
  ASSERT_EQ(trace.accesses_seen.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_TRUE(same(trace.accesses_seen[i], expected[i])) << i;
  // As the runtime writes it: modules, the access sections (one batch each), the process last.
  EXPECT_EQ(trace.order, "MAAAAP");
}

TEST(MemoryTraceFormat, AnEmptyTraceHasModulesAndAProcess) {
  ScratchFile file;
  {
    format::MemoryTraceWriter writer(file.path());
    writer.finish();
  }
  CollectedTrace trace;
  format::read_memory_trace(file.path(), trace);
  EXPECT_EQ(trace.order, "MP");
  EXPECT_TRUE(trace.accesses_seen.empty());
}

TEST(MemoryTraceFormat, LayoutMatchesTheDocumentation) {
  ScratchFile file;
  {
    format::MemoryTraceWriter writer(file.path());
    writer.add(access(0x1122334455667788, 0x0a0b, 16, true, format::kNoModule, 0x99));
    writer.finish();
  }
  const auto bytes = file_bytes(file.path());
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_TRUE(std::equal(format::kMemoryTraceMagic.begin(), format::kMemoryTraceMagic.end(), bytes.begin()));
  EXPECT_EQ(bytes[8], 1) << "version 1.0";
  EXPECT_EQ(format::min_encoded_size<MemoryAccessRecord>(), 24u);
  // header 16 | modules section: type 4, length 8, no payload, crc 4 | accesses section: type, length, record
  const std::size_t accesses_type = 16 + 16;
  EXPECT_EQ(bytes[accesses_type], 3);
  EXPECT_EQ(bytes[accesses_type + 4], 24) << "one record of 24 bytes";
  const std::size_t record = accesses_type + 12;
  EXPECT_EQ(bytes[record], 0x88);
  EXPECT_EQ(bytes[record + 8], 0x99) << "pc";
  EXPECT_EQ(bytes[record + 16], 0xff) << "module";
  EXPECT_EQ(bytes[record + 20], 0x0b) << "thread";
  EXPECT_EQ(bytes[record + 22], 16) << "size";
  EXPECT_EQ(bytes[record + 23], 1) << "flags";
}

TEST(MemoryTraceFormat, TruncationAtEveryOffsetIsAFormatError) {
  ScratchFile file;
  write_sample(file.path());
  const auto bytes = file_bytes(file.path());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size));
    const auto message = error_of(prefix);
    EXPECT_EQ(message.rfind("trace.ppm: ", 0), 0u) << "cut at " << size << ": " << message;
  }
  EXPECT_NE(error_of({bytes.begin(), bytes.end() - 8}).find("without its end marker"), std::string::npos);
  EXPECT_NE(error_of({}).find("empty file"), std::string::npos);
}

TEST(MemoryTraceFormat, TruncatedFileNamesTheFile) {
  ScratchFile file;
  write_sample(file.path());
  const auto bytes = file_bytes(file.path());
  std::filesystem::resize_file(file.path(), bytes.size() - 30);
  CollectedTrace trace;
  try {
    format::read_memory_trace(file.path(), trace);
    FAIL() << "a truncated file was accepted";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(file.path().string() + ": truncated", 0), 0u) << e.what();
  }
}

TEST(MemoryTraceFormat, AFlippedByteFailsTheChecksum) {
  ScratchFile file;
  write_sample(file.path());
  auto bytes = file_bytes(file.path());
  // header, modules section (12 + two records of 12 + path bytes + 4), the access section's header
  const std::size_t first_access = 16 + (12 + (12 + 13) + (12 + 14) + 4) + 12;
  bytes[first_access + 5] ^= 0x10;
  EXPECT_NE(error_of(bytes).find("checksum mismatch in section 2 (accesses)"), std::string::npos)
      << error_of(bytes);
}

TEST(MemoryTraceFormat, AProfileIsNamedAsSuch) {
  format::MemorySink sink;
  format::RecordWriter<format::MemorySink> w(sink);
  w.file_header();
  w.finish();
  EXPECT_NE(error_of(sink.bytes()).find("a parperf profile, not a memory trace"), std::string::npos)
      << error_of(sink.bytes());
  const std::string text = "L 0x1000 8\n";
  EXPECT_NE(error_of({text.begin(), text.end()}).find("unrecognised magic"), std::string::npos);
}

TEST(MemoryTraceFormat, AnotherMajorVersionIsRefused) {
  format::MemorySink sink;
  format::RecordWriter<format::MemorySink> w(sink);
  auto header = format::memory_trace_header();
  header.version_major = 2;
  header.version_minor = 0;
  w.file_header(header);
  w.finish();
  EXPECT_NE(error_of(sink.bytes()).find("memory trace version 2.0 is not supported"), std::string::npos)
      << error_of(sink.bytes());
}

TEST(MemoryTraceFormat, InvalidAccessesAreNamed) {
  const auto with = [](MemoryAccessRecord r) {
    return error_of(craft([&](auto& w) {
      accesses_section(w, r);
      process_section(w);
    }));
  };
  EXPECT_NE(with(access(0x10, 0, 3, false)).find("section 1 (accesses) access 0 has size 3"),
            std::string::npos);
  auto flagged = access(0x10, 0, 4, false);
  flagged.flags = 6;
  EXPECT_NE(with(flagged).find("unknown flags 6"), std::string::npos) << with(flagged);
  EXPECT_NE(with(access(0x10, 0, 4, false, 3, 0x40)).find("refers to module 3"), std::string::npos);
}

TEST(MemoryTraceFormat, StructuralDamageIsNamed) {
  const auto no_process = error_of(craft([](auto& w) { accesses_section(w, access(0x10, 0, 4, false)); }));
  EXPECT_NE(no_process.find("0 process sections (expected 1)"), std::string::npos) << no_process;

  auto miscounted = craft([](auto& w) { process_section(w); });
  miscounted[miscounted.size() - 4] = 9;  // a byte of the section count (1)
  EXPECT_NE(error_of(miscounted).find("end marker announces"), std::string::npos) << error_of(miscounted);

  const auto odd_length = error_of(craft([](auto& w) {
    w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::accesses));
    w.record(format::MemoryModuleRecord{1, 0, "x"});  // 13 bytes
    w.end_section();
  }));
  EXPECT_NE(odd_length.find("not a whole number of 24-byte access records"), std::string::npos) << odd_length;

  const auto twice = error_of(craft([](auto& w) {
    w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::modules));
    w.record(format::MemoryModuleRecord{1, 0, "a"});
    w.record(format::MemoryModuleRecord{1, 0, "b"});
    w.end_section();
    process_section(w);
  }));
  EXPECT_NE(twice.find("module 1 defined twice"), std::string::npos) << twice;

  auto trailing = craft([](auto& w) { process_section(w); });
  trailing.push_back(0);
  EXPECT_NE(error_of(trailing).find("unexpected bytes after the end marker"), std::string::npos);
}

TEST(MemoryTraceFormat, UnknownSectionsAreSkipped) {
  const auto bytes = craft([](auto& w) {
    w.begin_section(std::uint32_t{99});
    w.record(format::MemoryModuleRecord{1, 0, "from a later version"});
    w.end_section();
    accesses_section(w, access(0x10, 0, 4, true));
    process_section(w);
  });
  const auto trace = read_bytes(bytes);
  EXPECT_EQ(trace.order, "AP");
}

void sampling_section(format::RecordWriter<format::MemorySink>& w, std::uint64_t threshold,
                      std::uint32_t block) {
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::sampling));
  w.record(format::MemorySamplingRecord{std::uint64_t{1} << 24, threshold, block, 0});
  w.end_section();
}

// The collector's sampling: the rate before the accesses, and the skipped count in the pc's top bits.
TEST(MemoryTraceFormat, SamplingSectionGivesTheRate) {
  MemoryAccessRecord sampled = access(0x10, 0, 8, false, format::kNoModule, 0x401000);
  sampled.pc |= std::uint64_t{37} << format::kSkippedShift;
  const auto trace = read_bytes(craft([&](auto& w) {
    sampling_section(w, std::uint64_t{1} << 22, 512);
    accesses_section(w, sampled);
    process_section(w);
  }));
  EXPECT_EQ(trace.order, "SAP");
  ASSERT_EQ(trace.samplings.size(), 1u);
  EXPECT_DOUBLE_EQ(trace.samplings[0].rate, 0.25);
  EXPECT_EQ(trace.samplings[0].block_bytes, 512u);
  ASSERT_EQ(trace.accesses_seen.size(), 1u);
  EXPECT_EQ(format::code_address(trace.accesses_seen[0]), 0x401000u);
  EXPECT_EQ(format::skipped_before(trace.accesses_seen[0]), 37u);
}

TEST(MemoryTraceFormat, BadSamplingIsNamed) {
  const auto late = error_of(craft([](auto& w) {
    accesses_section(w, access(0x10, 0, 4, false));
    sampling_section(w, 100, 512);
    process_section(w);
  }));
  EXPECT_NE(late.find("the sampling section follows accesses"), std::string::npos) << late;
  const auto zero = error_of(craft([](auto& w) {
    sampling_section(w, 0, 512);
    process_section(w);
  }));
  EXPECT_NE(zero.find("is not a rate in (0, 1]"), std::string::npos) << zero;
  const auto block = error_of(craft([](auto& w) {
    sampling_section(w, 100, 500);
    process_section(w);
  }));
  EXPECT_NE(block.find("500 bytes is not a power of two"), std::string::npos) << block;
  const auto twice = error_of(craft([](auto& w) {
    sampling_section(w, 100, 512);
    sampling_section(w, 100, 512);
    process_section(w);
  }));
  EXPECT_NE(twice.find("a second sampling section"), std::string::npos) << twice;
}

void bursts_section(format::RecordWriter<format::MemorySink>& w, std::uint64_t burst, std::uint64_t gap) {
  w.begin_section(static_cast<std::uint32_t>(MemoryTraceSection::bursts));
  w.record(format::MemoryBurstRecord{burst, gap});
  w.end_section();
}

// The sampled mode's bursts: their length and mean gap before the accesses; a burst's first access
// carries the gap before it.
TEST(MemoryTraceFormat, BurstsSectionGivesTheBurstsAndGap) {
  MemoryAccessRecord first = access(0x10, 0, 8, false, format::kNoModule, 0x401000);
  first.pc |= std::uint64_t{9000} << format::kSkippedShift;
  const auto trace = read_bytes(craft([&](auto& w) {
    bursts_section(w, 1000, 9000);
    accesses_section(w, first);
    process_section(w);
  }));
  EXPECT_EQ(trace.order, "BAP");
  ASSERT_EQ(trace.burst_sections.size(), 1u);
  EXPECT_EQ(trace.burst_sections[0].burst_length, 1000u);
  EXPECT_EQ(trace.burst_sections[0].mean_gap, 9000u);
  ASSERT_EQ(trace.accesses_seen.size(), 1u);
  EXPECT_EQ(format::skipped_before(trace.accesses_seen[0]), 9000u);
}

TEST(MemoryTraceFormat, BadBurstsAreNamed) {
  const auto late = error_of(craft([](auto& w) {
    accesses_section(w, access(0x10, 0, 4, false));
    bursts_section(w, 1000, 9000);
    process_section(w);
  }));
  EXPECT_NE(late.find("the bursts section follows accesses"), std::string::npos) << late;
  const auto zero = error_of(craft([](auto& w) {
    bursts_section(w, 0, 9000);
    process_section(w);
  }));
  EXPECT_NE(zero.find("bursts of 0 accesses every 9000"), std::string::npos) << zero;
  const auto twice = error_of(craft([](auto& w) {
    bursts_section(w, 1000, 9000);
    bursts_section(w, 1000, 9000);
    process_section(w);
  }));
  EXPECT_NE(twice.find("a second bursts section"), std::string::npos) << twice;
}

TEST(MemoryTraceFormat, WriterRefusesWhatTheReaderWould) {
  ScratchFile file;
  format::MemoryTraceWriter writer(file.path());
  EXPECT_THROW(writer.add(access(0x10, 0, 32, false)), std::invalid_argument);
  EXPECT_THROW(writer.add(access(0x10, 0, 8, false, 4, 0x10)), std::invalid_argument);
  writer.add(access(0x10, 0, 8, false));
  EXPECT_THROW(writer.define_module(1, "late"), std::logic_error);
  writer.finish();
}

}  // namespace
}  // namespace parperf::test
