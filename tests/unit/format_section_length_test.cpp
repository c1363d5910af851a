// A section that claims gigabytes, in a sparse file whose size backs the claim (docs/format.md,
// "Limits"): every reader refuses it by its header, naming the file, the section and the limit,
// instead of allocating and checksumming what it claims. On tmpfs or ext4 the file takes no space.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "format/memory_sink.hpp"
#include "format/memory_trace_reader.hpp"
#include "format/profile_reader.hpp"
#include "format/record_writer.hpp"
#include "format/trace_file.hpp"
#include "unit/format_test_profiles.hpp"

namespace parperf::format {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kClaim = std::uint64_t{3} << 30;  // the 3 GiB

class SectionClaimingGigabytes : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("parperf-section-length-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  // `prefix` (a file header and whole sections), then a section of `type` declaring kClaim bytes,
  // its payload and checksum a hole, and an end marker: a file as large as its claim.
  fs::path sparse_file(const std::string& name, std::vector<std::uint8_t> prefix, std::uint32_t type) {
    const auto append = [&](const void* data, std::size_t size) {
      const auto* bytes = static_cast<const std::uint8_t*>(data);
      prefix.insert(prefix.end(), bytes, bytes + size);
    };
    append(&type, sizeof type);
    append(&kClaim, sizeof kClaim);
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(prefix.data()), static_cast<std::streamsize>(prefix.size()));
    fs::resize_file(path, prefix.size() + kClaim + 4 + 8);
    return path;
  }

  fs::path dir_;
};

template <class Read>
std::string error_of(Read read) {
  try {
    read();
    return "(read without error)";
  } catch (const FormatError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("(not a FormatError) ") + e.what();
  }
}

TEST_F(SectionClaimingGigabytes, AProfileIsRefusedByTheSectionsHeader) {
  std::vector<std::uint8_t> bytes = test::encode_profile(test::minimal_profile());
  bytes.resize(16);  // the file header
  const fs::path path = sparse_file("profile.0.ppf", bytes, static_cast<std::uint32_t>(SectionType::thread));
  EXPECT_EQ(error_of([&] { read_profile_file(path); }),
            path.string() +
                ": corrupt: section 1 (thread) declares 3221225472 bytes, more than any profile section "
                "may hold (1073741824)");
}

std::vector<std::uint8_t> trace_with_process() {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header(trace_header());
  writer.begin_section(static_cast<std::uint32_t>(TraceSection::process));
  writer.record(TraceProcessRecord{});
  writer.end_section();
  return sink.bytes();
}

TEST_F(SectionClaimingGigabytes, AnEventTraceIsRefusedByTheBlocksHeaderReadWholeOrAsAnIndex) {
  const std::vector<std::uint8_t> prefix = trace_with_process();
  const fs::path path = sparse_file("trace.0.ppt", prefix, static_cast<std::uint32_t>(TraceSection::block));
  const std::string expected = path.string() + ": corrupt: section 2 (offset " +
                               std::to_string(prefix.size()) +
                               ") declares 3221225472 bytes, more than any event trace section may hold (" +
                               std::to_string(kMaxTraceSectionBytes) + ")";
  EXPECT_EQ(error_of([&] { read_trace_file(path); }), expected);
  EXPECT_EQ(error_of([&] { open_trace_index(path); }), expected);
}

struct IgnoringVisitor : MemoryTraceVisitor {
  void accesses(std::span<const MemoryAccessRecord>) override {}
};

TEST_F(SectionClaimingGigabytes, AMemoryTraceIsRefusedByTheModuleTablesHeader) {
  MemorySink sink;
  RecordWriter writer(sink);
  writer.file_header(memory_trace_header());
  const fs::path path =
      sparse_file("memory.0.ppm", sink.bytes(), static_cast<std::uint32_t>(MemoryTraceSection::modules));
  IgnoringVisitor visitor;
  EXPECT_EQ(error_of([&] { read_memory_trace(path, visitor); }),
            path.string() +
                ": corrupt: section 1 (modules) declares 3221225472 bytes, more than any memory trace "
                "metadata section may hold (67108864)");
}

}  // namespace
}  // namespace parperf::format
