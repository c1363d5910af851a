#include "import/text_import.hpp"

#include <charconv>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace parperf::trace_import {
namespace {

constexpr std::string_view kHeader = "# parperf-memory-trace";
constexpr std::string_view kVersion = "v1";

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

// Decimal, or hexadecimal with a 0x prefix; the whole field must be the number.
bool parse_number(std::string_view field, std::uint64_t& value) {
  int base = 10;
  if (field.size() > 2 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X')) {
    field.remove_prefix(2);
    base = 16;
  }
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, base);
  return error == std::errc() && end == field.data() + field.size();
}

class TextImporter {
 public:
  TextImporter(format::MemoryTraceWriter& writer, const ImportOptions& options)
      : writer_(writer), options_(options), code_(begin_import(writer, options, "text")) {}

  void line(std::string_view text) {
    ++stats_.lines;
    if (stats_.lines == 1 && text.substr(0, kHeader.size()) == kHeader) return header(text);
    text = text.substr(0, text.find('#'));
    const auto fields = split_fields(text);
    if (fields.empty()) return;
    if (fields[0] == "T") return thread(fields);
    if (fields[0] == "L" || fields[0] == "S") return access(fields);
    fail("unknown record '" + std::string(fields[0]) + "' (expected L, S or T)");
  }

  const ImportStats& stats() const { return stats_; }

 private:
  [[noreturn]] void fail(const std::string& what) const { import_error(options_, stats_.lines, what); }

  std::uint64_t number(std::string_view field, const char* what) const {
    std::uint64_t value = 0;
    if (!parse_number(field, value))
      fail(std::string(what) + " '" + std::string(field) +
           "' is not a number (decimal, or hexadecimal with 0x)");
    return value;
  }

  void header(std::string_view text) {
    const auto fields = split_fields(text.substr(kHeader.size()));
    if (fields.size() != 1 || fields[0] != kVersion)
      fail("unsupported header '" + std::string(text) + "' (this parperf reads '" + std::string(kHeader) +
           " " + std::string(kVersion) + "')");
  }

  void thread(const std::vector<std::string_view>& fields) {
    if (fields.size() != 2) fail("a thread line is 'T <thread>'");
    const auto value = number(fields[1], "thread");
    if (value > std::numeric_limits<std::uint16_t>::max())
      fail("thread " + std::to_string(value) + " is more than 65535");
    thread_ = static_cast<std::uint16_t>(value);
  }

  void access(const std::vector<std::string_view>& fields) {
    if (fields.size() != 3 && fields.size() != 4)
      fail("an access line is '" + std::string(fields[0]) + " <address> <size> [<pc>]'");
    format::MemoryAccessRecord r;
    r.address = number(fields[1], "address");
    const auto size = number(fields[2], "size");
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
      fail("size " + std::string(fields[2]) + " is not 1, 2, 4, 8 or 16");
    r.size = static_cast<std::uint8_t>(size);
    r.pc = fields.size() == 4 ? number(fields[3], "pc") : 0;
    code_.locate(r);
    r.thread = thread_;
    const bool store = fields[0] == "S";
    r.flags = store ? format::kAccessStore : 0;
    writer_.add(r);
    ++stats_.accesses;
    ++(store ? stats_.stores : stats_.loads);
  }

  format::MemoryTraceWriter& writer_;
  const ImportOptions& options_;
  ExecutableCodeMap code_;
  ImportStats stats_;
  std::uint16_t thread_ = 0;
};

}  // namespace

ImportStats import_text(std::istream& in, format::MemoryTraceWriter& writer, const ImportOptions& options) {
  TextImporter importer(writer, options);
  std::string text;
  while (std::getline(in, text)) importer.line(text);
  if (in.bad()) import_error(options, importer.stats().lines, "read error");
  return importer.stats();
}

}  // namespace parperf::trace_import
