// Chrome's trace-event JSON (the "Trace Event Format" of chrome://tracing, which ui.perfetto.dev
// also opens): {"traceEvents": [...], "displayTimeUnit": "ns"}. A rank is a pid, a thread a tid,
// named by "M" metadata events; slices are "B"/"E" pairs, instants "i" (thread scope), each rank's
// lost time a "C" counter, flow arrows "s"/"f" pairs bound to the enclosing slices. Times are in
// µs, as the format wants, with three decimals: nothing of the ns is lost. A user event's lane is a
// tid of its own (lane × 1,000,000 + thread), named after its thread and event. Written as it
// comes: suited to small traces (viewers load the whole file).
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "export/output_file.hpp"
#include "export/timeline_slices.hpp"

namespace parperf::exports {

class ChromeJsonWriter final : public TimelineWriter {
 public:
  ChromeJsonWriter(const std::filesystem::path& path, const TimelineNames& names);
  void item(const TimelineItem& item) override;
  void finish() override;

 private:
  void name_thread(std::int64_t rank, std::uint64_t tid, std::string_view name);
  void begin_record();

  const TimelineNames& names_;
  OutputFile file_;
  bool first_ = true;
  std::set<std::pair<std::int64_t, std::uint64_t>> named_;  // (pid, tid) with a thread_name record
  std::string line_;                                        // the record being written
};

// `text` as a JSON string, quotes included: quotes, backslashes and control characters escaped,
// bytes that are not UTF-8 replaced by U+FFFD (JSON must be UTF-8).
void append_json_string(std::string& out, std::string_view text);

}  // namespace parperf::exports
