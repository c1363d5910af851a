// docs/format.md and docs/locality.md describe the files byte by byte; records.hpp and
// memory_trace.hpp define them. This test reads the documents and holds every record's table (its
// fields' names, widths and offsets, and its size) and the site-kind table against the code, so
// that a field added, moved or retyped on one side and not on the other fails here, naming it.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "format/memory_trace.hpp"
#include "format/records.hpp"
#include "format/site_kinds.hpp"
#include "format/trace_records.hpp"

namespace parperf::format {
namespace {

std::string read_document(const char* name) {
  const std::string path = std::string(PARPERF_SOURCE_DIR) + "/docs/" + name;
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Field {
  std::string name;
  std::string width;  // "u32", "i64", "str"
  std::optional<std::uint64_t> offset;
  bool operator==(const Field&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Field& f) {
  return out << (f.offset ? std::to_string(*f.offset) : std::string("-")) << " " << f.width << " " << f.name;
}

template <class T>
std::string width_of() {
  if constexpr (is_text_v<T>) {
    return "str";
  } else if constexpr (std::is_enum_v<T>) {
    return width_of<std::underlying_type_t<T>>();
  } else {
    static_assert(std::is_integral_v<T>);
    return std::string(std::is_signed_v<T> ? "i" : "u") + std::to_string(8 * sizeof(T));
  }
}

// The code's view of a record: each field with its width, and its offset while the offsets are
// fixed (up to and including the first string).
template <class Record>
std::vector<Field> code_fields() {
  std::vector<Field> out;
  std::optional<std::uint64_t> offset = 0;
  Record r{};
  named_fields(r, [&](const char* name, auto& field) {
    using T = std::decay_t<decltype(field)>;
    out.push_back({name, width_of<T>(), offset});
    if (!offset) return;
    if constexpr (is_text_v<T>)
      offset.reset();
    else
      *offset += sizeof(T);
  });
  return out;
}

struct DocumentedRecord {
  std::uint64_t size = 0;  // "smallest size N bytes" or "N bytes"
  std::vector<Field> fields;
};

// Every "### NameRecord (...; N bytes)" heading of format.md with its table's rows.
std::map<std::string, DocumentedRecord> documented_records(const std::string& text) {
  std::map<std::string, DocumentedRecord> records;
  const std::regex heading(R"(^### (\w+Record) \(.*?(\d+) bytes\)\s*$)");
  const std::regex row(R"(^\|\s*(\d*)\s*\|\s*(\w+)\s*\|\s*`(\w+)`\s*\|)");
  std::istringstream lines(text);
  std::string line;
  DocumentedRecord* current = nullptr;
  bool in_table = false;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, heading)) {
      current = &records[m[1]];
      current->size = std::stoull(m[2]);
      in_table = false;
      continue;
    }
    if (!current) continue;
    if (line.starts_with("|")) {
      in_table = true;
      if (std::regex_search(line, m, row)) {
        current->fields.push_back(
            {m[3], m[2], m[1].length() ? std::optional<std::uint64_t>(std::stoull(m[1])) : std::nullopt});
      }
    } else if (in_table || line.starts_with("#")) {
      current = nullptr;  // one table per record
    }
  }
  return records;
}

template <class Record>
void expect_documented(const std::map<std::string, DocumentedRecord>& documented) {
  const std::string name(Record::kName);
  const auto it = documented.find(name);
  ASSERT_NE(it, documented.end()) << "docs/format.md has no table for " << name;
  EXPECT_EQ(it->second.size, min_encoded_size<Record>())
      << "docs/format.md gives " << name << " " << it->second.size << " bytes; the code's fields take "
      << min_encoded_size<Record>();
  const std::vector<Field> code = code_fields<Record>();
  const std::vector<Field>& doc = it->second.fields;
  for (std::size_t i = 0; i < std::max(code.size(), doc.size()); ++i) {
    if (i >= doc.size()) {
      ADD_FAILURE() << name << "'s field " << code[i] << " is not in docs/format.md";
      continue;
    }
    if (i >= code.size()) {
      ADD_FAILURE() << "docs/format.md documents " << name << "'s field " << doc[i]
                    << ", which the code lacks";
      continue;
    }
    Field expected = code[i];
    if (!doc[i].offset) expected.offset.reset();  // the table may leave variable offsets blank
    EXPECT_EQ(doc[i], expected) << name << " field " << i << ": docs/format.md says '" << doc[i]
                                << "', the code '" << code[i] << "'";
  }
}

template <class... Records>
void expect_all_documented(RecordList<Records...>,
                           const std::map<std::string, DocumentedRecord>& documented) {
  (expect_documented<Records>(documented), ...);
}

TEST(FormatDocument, EveryRecordTableMatchesTheFieldLists) {
  const auto documented = documented_records(read_document("format.md"));
  expect_all_documented(ProfileRecords{}, documented);
  expect_all_documented(TraceRecords{}, documented);
}

template <class... Records>
bool is_listed(RecordList<Records...>, const std::string& name) {
  return ((name == Records::kName) || ...);
}

TEST(FormatDocument, DocumentsNoRecordTheCodeLacks) {
  for (const auto& [name, record] : documented_records(read_document("format.md")))
    EXPECT_TRUE(is_listed(ProfileRecords{}, name) || is_listed(TraceRecords{}, name))
        << "docs/format.md documents " << name << ", which records.hpp and trace_records.hpp do not define";
}

TEST(FormatDocument, TheSiteKindTableMatchesSiteKinds) {
  const std::string text = read_document("format.md");
  const std::regex row(R"(^\|\s*(\d+)\s*\|\s*`(\w+)`\s*\|)");
  std::map<std::uint32_t, std::string> documented;
  const std::size_t table = text.find("| kind  | name");
  ASSERT_NE(table, std::string::npos) << "docs/format.md has no site-kind table";
  std::istringstream lines(text.substr(table));
  std::string line;
  while (std::getline(lines, line) && line.starts_with("|")) {
    std::smatch m;
    if (std::regex_search(line, m, row)) documented[static_cast<std::uint32_t>(std::stoul(m[1]))] = m[2];
  }
  for (const SiteKindInfo& info : kSiteKinds) {
    const auto kind = static_cast<std::uint32_t>(info.kind);
    const auto it = documented.find(kind);
    if (it == documented.end()) {
      ADD_FAILURE() << "site kind " << kind << " (" << info.key << ") is not in docs/format.md";
      continue;
    }
    EXPECT_EQ(it->second, info.key) << "site kind " << kind;
    documented.erase(it);
  }
  for (const auto& [kind, key] : documented)
    ADD_FAILURE() << "docs/format.md documents site kind " << kind << " (" << key
                  << "), which the code lacks";
}

// docs/locality.md lists the memory trace's records inline: "`u64 address, u64 pc, ...`".
template <class Record>
void expect_memory_record(const std::string& text, const char* section) {
  const std::regex row("\\|\\s*\\d+\\s*\\|\\s*" + std::string(section) + "\\s*\\|[^`]*`([^`]*)`");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, row)) << "docs/locality.md has no row for the section " << section;
  std::string listed;
  for (const Field& f : code_fields<Record>())
    listed += (listed.empty() ? "" : ", ") + f.width + " " + f.name;
  EXPECT_EQ(m[1].str(), listed) << "the memory trace's " << section << " record";
}

TEST(FormatDocument, TheMemoryTraceRecordsMatchTheFieldLists) {
  const std::string text = read_document("locality.md");
  expect_memory_record<MemoryTraceProcessRecord>(text, "process");
  expect_memory_record<MemoryModuleRecord>(text, "modules");
  expect_memory_record<MemoryAccessRecord>(text, "accesses");
  expect_memory_record<MemorySamplingRecord>(text, "sampling");
}

}  // namespace
}  // namespace parperf::format
