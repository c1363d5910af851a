#include "import/lackey_import.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace parperf::trace_import {
namespace {

struct LackeyLine {
  char kind = 0;  // 'I', 'L', 'S', 'M'
  std::uint64_t address = 0;
  std::uint64_t size = 0;
};

// Lackey's exact shape: "I  <hex>,<dec>" or " X <hex>,<dec>" with X in L, S, M. Anything else is
// not a trace line: the program's output can be interleaved with the trace on stderr.
std::optional<LackeyLine> parse_trace_line(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (line.size() < 6 || line[2] != ' ') return std::nullopt;
  LackeyLine parsed;
  if (line[0] == 'I' && line[1] == ' ')
    parsed.kind = 'I';
  else if (line[0] == ' ' && (line[1] == 'L' || line[1] == 'S' || line[1] == 'M'))
    parsed.kind = line[1];
  else
    return std::nullopt;
  const char* end = line.data() + line.size();
  auto [comma, error] = std::from_chars(line.data() + 3, end, parsed.address, 16);
  if (error != std::errc() || comma == end || *comma != ',') return std::nullopt;
  auto [rest, size_error] = std::from_chars(comma + 1, end, parsed.size, 10);
  if (size_error != std::errc() || rest != end) return std::nullopt;
  return parsed;
}

// "==1234== Command: ./prog arg": valgrind's preamble names the process.
void read_valgrind_message(std::string_view line, format::MemoryTraceProcess& process) {
  if (line.size() < 5 || line.substr(0, 2) != "==") return;
  const auto close = line.find("==", 2);
  if (close == std::string_view::npos) return;
  std::int64_t pid = 0;
  const auto [end, error] = std::from_chars(line.data() + 2, line.data() + close, pid);
  if (error != std::errc() || end != line.data() + close) return;
  if (process.pid == 0) process.pid = pid;
  constexpr std::string_view kCommand = " Command: ";
  const auto text = line.substr(close + 2);
  if (process.command_line.empty() && text.substr(0, kCommand.size()) == kCommand) {
    auto command = text.substr(kCommand.size());
    while (!command.empty() && command.back() == '\r') command.remove_suffix(1);
    process.command_line = std::string(command);
  }
}

// Largest piece size in {16, 8, 4, 2, 1} that is not more than `bytes`.
std::uint8_t piece_size(std::uint64_t bytes) {
  for (std::uint8_t size = 16; size > 1; size = static_cast<std::uint8_t>(size / 2))
    if (bytes >= size) return size;
  return 1;
}

}  // namespace

ImportStats import_lackey(std::istream& in, format::MemoryTraceWriter& writer, const ImportOptions& options) {
  const ExecutableCodeMap code = begin_import(writer, options, "lackey");
  ImportStats stats;
  format::MemoryAccessRecord access;
  access.thread = 0;
  code.locate(access);  // pc 0, no module, until the first instruction line

  const auto emit = [&](std::uint64_t address, std::uint64_t size, std::uint8_t flags) {
    access.flags = flags;
    while (size > 0) {
      access.address = address;
      access.size = piece_size(size);
      writer.add(access);
      ++stats.accesses;
      ++(flags == format::kAccessStore ? stats.stores : stats.loads);
      address += access.size;
      size -= access.size;
    }
  };

  std::string text;
  while (std::getline(in, text)) {
    ++stats.lines;
    const auto line = parse_trace_line(text);
    if (!line) {
      read_valgrind_message(text, writer.process());
      ++stats.skipped_lines;
      continue;
    }
    if (line->kind == 'I') {
      access.pc = line->address;
      code.locate(access);
      continue;
    }
    if (line->size == 0) {
      ++stats.skipped_lines;
      continue;
    }
    if (line->size > kMaxLackeyAccess)
      import_error(options, stats.lines,
                   "an access of " + std::to_string(line->size) + " bytes (at most " +
                       std::to_string(kMaxLackeyAccess) + " expected from lackey)");
    if (line->size != piece_size(line->size)) ++stats.split;
    if (line->kind == 'L' || line->kind == 'M') emit(line->address, line->size, 0);
    if (line->kind == 'S' || line->kind == 'M') emit(line->address, line->size, format::kAccessStore);
  }
  if (in.bad()) import_error(options, stats.lines, "read error");
  return stats;
}

}  // namespace parperf::trace_import
