#include "export/chrome_json_writer.hpp"

#include <fmt/format.h>

#include <iterator>

namespace parperf::exports {

namespace {

// The length of the well-formed UTF-8 sequence at the start of `s`, 0 when there is none.
std::size_t utf8_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = lead < 0x80           ? 1
                       : (lead >> 5) == 0x6  ? 2
                       : (lead >> 4) == 0xe  ? 3
                       : (lead >> 3) == 0x1e ? 4
                                             : 0;
  if (length == 0 || length > s.size()) return 0;
  for (std::size_t i = 1; i < length; ++i)
    if ((byte(i) & 0xc0) != 0x80) return 0;
  return length;
}

void append_timestamp(std::string& out, std::uint64_t ns) {
  fmt::format_to(std::back_inserter(out), "{}.{:03}", ns / 1000, ns % 1000);
}

std::uint64_t tid_of(const TimelineItem& item) { return std::uint64_t{item.lane} * 1'000'000 + item.thread; }

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"' || c == '\\') {
      out += '\\', out += c, ++i;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c)), ++i;
    } else if (const std::size_t n = utf8_length(text.substr(i)); n > 0) {
      out.append(text.substr(i, n)), i += n;
    } else {
      out += "\xef\xbf\xbd", ++i;
    }
  }
  out += '"';
}

ChromeJsonWriter::ChromeJsonWriter(const std::filesystem::path& path, const TimelineNames& names)
    : names_(names), file_(path) {
  file_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  for (const RankInfo& rank : names_.ranks()) {
    begin_record();
    fmt::format_to(std::back_inserter(line_),
                   "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"args\":{{\"name\":", rank.rank);
    append_json_string(line_, rank.label);
    line_ += "}}";
    file_.write(line_);
    for (const ThreadInfo& thread : rank.threads)
      name_thread(rank.rank, thread.index, fmt::format("thread {}", thread.index));
  }
}

void ChromeJsonWriter::begin_record() {
  line_.clear();
  if (!first_) line_ += ",\n";
  first_ = false;
}

void ChromeJsonWriter::name_thread(std::int64_t rank, std::uint64_t tid, std::string_view name) {
  if (!named_.emplace(rank, tid).second) return;
  begin_record();
  fmt::format_to(std::back_inserter(line_),
                 "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":", rank,
                 tid);
  append_json_string(line_, name);
  line_ += "}}";
  file_.write(line_);
}

void ChromeJsonWriter::item(const TimelineItem& item) {
  const std::uint64_t tid = tid_of(item);
  if (item.kind != ItemKind::counter && !named_.count({item.rank, tid}))
    name_thread(item.rank, tid,
                item.lane ? fmt::format("thread {}: {}", item.thread, item.name)
                          : fmt::format("thread {}", item.thread));
  begin_record();
  auto out = std::back_inserter(line_);
  switch (item.kind) {
    case ItemKind::slice_begin:
    case ItemKind::instant:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      fmt::format_to(out, ",\"cat\":\"{}\",\"ph\":\"{}\"", category_name(item.category),
                     item.kind == ItemKind::instant ? "i\",\"s\":\"t" : "B");
      break;
    case ItemKind::slice_end:
      line_ += "{\"ph\":\"E\"";
      break;
    case ItemKind::counter:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      fmt::format_to(out, ",\"ph\":\"C\",\"pid\":{},\"ts\":", item.rank);
      append_timestamp(line_, item.timestamp);
      fmt::format_to(out, ",\"args\":{{\"ns\":{}}}}}", static_cast<std::int64_t>(item.value));
      file_.write(line_);
      return;
    case ItemKind::flow_start:
    case ItemKind::flow_end:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      fmt::format_to(out, ",\"cat\":\"{}\",\"ph\":\"{}\",\"id\":{}", category_name(item.category),
                     item.kind == ItemKind::flow_start ? "s" : "f\",\"bp\":\"e", item.flow);
      break;
  }
  fmt::format_to(out, ",\"pid\":{},\"tid\":{},\"ts\":", item.rank, tid);
  append_timestamp(line_, item.timestamp);
  bool first_argument = true;
  for_each_argument(item, [&](const Argument& a) {
    line_ += first_argument ? ",\"args\":{" : ",";
    first_argument = false;
    append_json_string(line_, a.name);
    line_ += ':';
    if (a.is_text)
      append_json_string(line_, a.text);
    else
      fmt::format_to(out, "{}", a.number);
  });
  if (!first_argument) line_ += '}';
  line_ += '}';
  file_.write(line_);
}

void ChromeJsonWriter::finish() {
  file_.write("\n]}\n");
  file_.close();
}

}  // namespace parperf::exports
