// One CSV row per recorded event, in corrected time order, for scripts (RFC 4180: a header row,
// comma-separated fields, a field quoted when it holds a comma, a quote or a line break, quotes
// doubled, lines ended by CRLF). Columns: rank, thread, time_ns (corrected: on rank 0's clock since
// its start), local_ns (on the rank's own clock), kind, name (the site or user event), file, line,
// duration_ns, bytes, partner, tag, text. Fields an event does not have are empty. A text field that
// a spreadsheet would run as a formula starts with ' (append_csv_field).
#pragma once

#include <filesystem>
#include <string>

#include "export/output_file.hpp"
#include "export/timeline_slices.hpp"
#include "format/csv_field.hpp"

namespace parperf::exports {

class CsvWriter final : public TimelineWriter {
 public:
  CsvWriter(const std::filesystem::path& path, const TimelineNames& names);
  void event(const analysis::TimelineEvent& e) override;
  void finish() override;

 private:
  // The rank's tick length (durations are in ticks), looked up once per run of its events.
  double ns_per_tick(std::int64_t rank);

  const TimelineNames& names_;
  const RankInfo* last_rank_ = nullptr;
  OutputFile file_;
  std::string row_;
};

// One field, RFC 4180, guarded against spreadsheet formulas (format/csv_field.hpp).
using format::append_csv_field;

}  // namespace parperf::exports
