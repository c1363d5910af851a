// The OTF2 export (export/otf2_writer.hpp), read back by OTF2's own otf2-print: the archive opens,
// and holds the expected regions, Enter/Leave pairs and MPI records at corrected times.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "export/otf2_writer.hpp"
#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

class export_otf2 : public ExportRunTest {
 protected:
  void export_archive() {
    export_with(dir_ / "run", message_flows(), [&](const exports::TimelineNames& names) {
      return std::make_unique<exports::Otf2Writer>(dir_ / "otf2", names);
    });
  }
  // otf2-print's listing of the archive (events, or with `options` the definitions).
  std::string print(const std::string& options = "") {
    const auto out = dir_ / "printed.txt";
    const std::string command = std::string(PARPERF_OTF2_PRINT) + " " + options + " " +
                                (dir_ / "otf2" / "traces.otf2").string() + " > " + out.string() + " 2>&1";
    const int status = std::system(command.c_str());
    const std::string text = read_file_bytes(out);
    EXPECT_EQ(status, 0) << "otf2-print refused the archive:\n" << text;
    return text;
  }
};

// Lines of otf2-print's listing that begin with `record` (its records' names in capitals).
int count_records(const std::string& listing, const std::string& record) {
  std::istringstream lines(listing);
  int n = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(record + " ", 0) == 0) ++n;
  return n;
}

TEST_F(export_otf2, OtfPrintReadsTheEnterLeaveAndMpiRecords) {
  export_archive();
  const std::string events = print();
  // Per rank: solve, step, the send or receive and the allreduce on thread 0, worker on thread 1.
  EXPECT_EQ(count_records(events, "ENTER"), 10) << events;
  EXPECT_EQ(count_records(events, "LEAVE"), 10);
  EXPECT_EQ(count_records(events, "MPI_SEND"), 1);
  EXPECT_EQ(count_records(events, "MPI_RECV"), 1);
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_BEGIN"), 2);
  EXPECT_EQ(count_records(events, "MPI_COLLECTIVE_END"), 2);
}

TEST_F(export_otf2, DefinitionsNameTheRegionsRanksAndThreads) {
  export_archive();
  const std::string defs = print("-A --silent");
  for (const char* name :
       {"\"solve\"", "\"step\"", "\"worker\"", "\"MPI_Send\"", "\"MPI_Recv\"", "\"MPI_Allreduce\"",
        "\"rank 0\"", "\"rank 1\"", "\"thread 1\"", "\"MPI_COMM_WORLD\""})
    EXPECT_NE(defs.find(name), std::string::npos) << name << " is not defined:\n" << defs;
}

TEST_F(export_otf2, AnExistingArchiveIsNotOverwritten) {
  export_archive();
  try {
    export_archive();
    FAIL() << "a second export over the same archive succeeded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("already holds an OTF2 archive"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parperf::test
