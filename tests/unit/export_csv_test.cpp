// The CSV export (export/csv_writer.hpp): one row per recorded event in corrected time, RFC 4180
// quoting, and what a truncated trace still gives.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "export/csv_writer.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

// The rows of an RFC 4180 file, each split into fields (quotes undone).
std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
        field += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field), field.clear();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      rows.back().push_back(field), field.clear();
      rows.emplace_back();
      ++i;
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

class export_csv : public ExportRunTest {
 protected:
  std::uint64_t export_csv_file() {
    return export_with(dir_ / "run", {}, [&](const exports::TimelineNames& names) {
      return std::make_unique<exports::CsvWriter>(dir_ / "events.csv", names);
    });
  }
};

TEST_F(export_csv, OneRowPerEventInCorrectedTimeWithItsFields) {
  EXPECT_EQ(export_csv_file(), 2u * kEventsPerRank);
  const auto rows = read_csv(dir_ / "events.csv");
  ASSERT_EQ(rows.size(), 1u + 2 * kEventsPerRank) << "a header and one row per event";
  EXPECT_EQ(rows[0],
            (std::vector<std::string>{"rank", "thread", "time_ns", "local_ns", "kind", "name", "file", "line",
                                      "duration_ns", "bytes", "partner", "tag", "text"}));
  double last = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 13u) << "row " << i;
    EXPECT_GE(std::stod(rows[i][2]), last) << "row " << i << " goes back in time";
    last = std::stod(rows[i][2]);
  }
  // Rank 1's receive: at 13 ms corrected, 8 ms on its own clock.
  const std::vector<std::string> receive = {"1",        "0",     "13000000", "8000000", "operation",
                                            "MPI_Recv", "app.c", "20",       "2000000", "800",
                                            "0",        "7",     ""};
  EXPECT_NE(std::find(rows.begin(), rows.end(), receive), rows.end()) << "rank 1's MPI_Recv row";
  const std::vector<std::string> checkpoint = {
      "0", "0", "17000000", "17000000", "event", "checkpoint", "", "", "", "", "", "", "step \"1\", done"};
  EXPECT_NE(std::find(rows.begin(), rows.end(), checkpoint), rows.end())
      << "a quoted text with a comma and quotes";
}

// A name or text from the program that a spreadsheet would run as a formula (=HYPERLINK(...) sends
// the file's data away when clicked) is made a text cell by a leading ', quoted or not; a cell that
// only holds such characters later, or a number's sign, is left as it is.
TEST(export_csv_task, ATaskEventIsARowOfKindTaskWithTheTasksIdInTheTagColumn) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("parperf-csv-task-" + std::to_string(getpid()) + ".csv");
  const exports::TimelineNames names(analysis::TraceRun{}, analysis::SiteTable{});
  exports::CsvWriter writer(path, names);
  writer.event({0, 1, 20, 20, {.kind = format::TraceEventKind::task, .value = 4294967297}});
  writer.finish();
  const auto rows = read_csv(path);
  std::filesystem::remove(path);
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[1].size(), rows[0].size()) << "the task's row has another number of fields than the header";
  EXPECT_EQ(rows[0][11], "tag");
  EXPECT_EQ(rows[1][4], "task");
  EXPECT_EQ(rows[1][11], "4294967297") << "the task's id, in the tag column";
}

TEST(export_csv_field, AFieldThatOpensAFormulaStartsWithAQuote) {
  const auto field = [](std::string_view text) {
    std::string row;
    exports::append_csv_field(row, text);
    return row;
  };
  EXPECT_EQ(field("=1+2"), "'=1+2");
  EXPECT_EQ(field("+cmd"), "'+cmd");
  EXPECT_EQ(field("-2+3"), "'-2+3");
  EXPECT_EQ(field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(field("\t=1"), "'\t=1");
  EXPECT_EQ(field("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(field("\r=1"), "\"'\r=1\"");
  EXPECT_EQ(field("a=1"), "a=1");
  EXPECT_EQ(field("MPI_Recv"), "MPI_Recv");
  EXPECT_EQ(field(""), "");
}

TEST_F(export_csv, ATruncatedTraceIsExportedUpToItsLastCompleteBlockWithAWarning) {
  std::filesystem::resize_file(dir_ / "run" / "trace.1.ppt", rank1_before_last_block_ + 10);
  LoadedRun loaded(dir_ / "run");
  bool warned = false;
  for (const std::string& w : loaded.traces.warnings)
    warned =
        warned || (w.find("trace.1.ppt") != std::string::npos && w.find("ends early") != std::string::npos);
  EXPECT_TRUE(warned) << "the warning names the file cut short";
  const int lost = kThread0Events - kRank1FirstBlockEvents;  // rank 1 thread 0's second block
  EXPECT_EQ(export_csv_file(), 2u * kEventsPerRank - lost);
  EXPECT_EQ(read_csv(dir_ / "events.csv").size(), 1u + 2 * kEventsPerRank - lost);
}

TEST_F(export_csv, ARunWithoutTracesIsRefusedWithTheWayToRecordOne) {
  std::filesystem::remove(dir_ / "run" / "trace.0.ppt");
  std::filesystem::remove(dir_ / "run" / "trace.1.ppt");
  try {
    export_csv_file();
    FAIL() << "a run without traces was exported";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (dir_ / "run").string() + " has no event trace: record one with parperf run --trace");
  }
}

TEST_F(export_csv, AForeignTraceFileIsNamed) {
  std::ofstream(dir_ / "run" / "trace.1.ppt", std::ios::trunc) << "not a trace at all, just text";
  try {
    export_csv_file();
    FAIL() << "a damaged trace was exported";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("trace.1.ppt"), std::string::npos) << e.what();
  }
}

TEST_F(export_csv, ProgressIsToldEveryNEventsAndAtTheEndWithTheTotalFromTheBlockRecords) {
  LoadedRun loaded(dir_ / "run");
  exports::CsvWriter writer(dir_ / "events.csv", loaded.names);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> told;  // (done, total)
  exports::export_timeline(
      loaded.traces, loaded.names, {}, {&writer},
      [&](const exports::ExportProgress& p) { told.emplace_back(p.events_done, p.events_total); }, 10);
  const std::uint64_t total = 2 * kEventsPerRank;
  EXPECT_EQ(told,
            (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{10, total}, {20, total}, {total, total}}));
}

TEST(export_csv_field, QuotedOnlyWhenItMustBe) {
  std::string row;
  exports::append_csv_field(row, "plain");
  row += '|';
  exports::append_csv_field(row, "a,b");
  row += '|';
  exports::append_csv_field(row, "say \"hi\"");
  row += '|';
  exports::append_csv_field(row, "two\nlines");
  EXPECT_EQ(row, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"");
}

}  // namespace
}  // namespace parperf::test
