#include "export/chrome_json_writer.hpp"

#include "export/append_number.hpp"

#include <fmt/format.h>

#include <iterator>

#include "format/utf8_text.hpp"

namespace parperf::exports {

namespace {

// ns as µs with three decimals.
void append_timestamp(std::string& out, std::uint64_t ns) {
  append_number(out, ns / 1000);
  const auto fraction = static_cast<unsigned>(ns % 1000);
  const char decimals[4] = {'.', static_cast<char>('0' + fraction / 100),
                            static_cast<char>('0' + fraction / 10 % 10),
                            static_cast<char>('0' + fraction % 10)};
  out.append(decimals, 4);
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
    } else if (const std::size_t n = format::utf8_sequence_length(text, i); n > 0) {
      out.append(text.substr(i, n)), i += n;
    } else {
      out += format::kReplacementCharacter, ++i;
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
  switch (item.kind) {
    case ItemKind::slice_begin:
    case ItemKind::instant:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      line_ += ",\"cat\":\"";
      line_ += category_name(item.category);
      line_ += item.kind == ItemKind::instant ? "\",\"ph\":\"i\",\"s\":\"t\"" : "\",\"ph\":\"B\"";
      break;
    case ItemKind::slice_end:
      line_ += "{\"ph\":\"E\"";
      break;
    case ItemKind::counter:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      line_ += ",\"ph\":\"C\",\"pid\":";
      append_number(line_, item.rank);
      line_ += ",\"ts\":";
      append_timestamp(line_, item.timestamp);
      line_ += ",\"args\":{\"ns\":";
      append_quantity(line_, item.value);
      line_ += "}}";
      file_.write(line_);
      return;
    case ItemKind::flow_start:
    case ItemKind::flow_end:
      line_ += "{\"name\":";
      append_json_string(line_, item.name);
      line_ += ",\"cat\":\"";
      line_ += category_name(item.category);
      line_ += item.kind == ItemKind::flow_start ? "\",\"ph\":\"s\",\"id\":"
                                                 : "\",\"ph\":\"f\",\"bp\":\"e\",\"id\":";
      append_number(line_, item.flow);
      break;
  }
  line_ += ",\"pid\":";
  append_number(line_, item.rank);
  line_ += ",\"tid\":";
  append_number(line_, tid);
  line_ += ",\"ts\":";
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
      append_number(line_, a.number);
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
