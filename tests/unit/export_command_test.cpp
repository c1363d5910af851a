// `parperf export` as a user runs it (the built command): its outputs, its one-line errors and
// exit status, and its progress line, shown on a terminal only.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>
#include <string>

#include "unit/export_test_support.hpp"

namespace parperf::test {
namespace {

class export_command : public ExportRunTest {
 protected:
  // Runs `parperf export <arguments>`; returns its exit status, its stderr in `err_`.
  int parperf_export(const std::string& arguments) {
    const std::string command = std::string(PARPERF_COMMAND) + " export " + arguments + " 2> " +
                                (dir_ / "stderr.txt").string() + " > /dev/null";
    const int status = std::system(command.c_str());
    err_ = read_file_bytes(dir_ / "stderr.txt");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  std::string err_;
};

TEST_F(export_command, WritesEveryOutputAskedForAndNothingOnStderrWhenItIsNotATerminal) {
  const std::filesystem::path run = dir_ / "run";
  ASSERT_EQ(parperf_export(run.string() + " --csv " + (dir_ / "e.csv").string() + " --perfetto " +
                           (dir_ / "e.pftrace").string() + " --chrome-json " + (dir_ / "e.json").string() +
                           " --otf2 " + (dir_ / "otf2").string()),
            0)
      << err_;
  EXPECT_EQ(err_, "") << "no progress line when stderr is a file";
  for (const char* output : {"e.csv", "e.pftrace", "e.json", "otf2/traces.otf2"})
    EXPECT_GT(std::filesystem::file_size(dir_ / output), 0u) << output;
  std::istringstream csv(read_file_bytes(dir_ / "e.csv"));
  int rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, 1 + 2 * kEventsPerRank) << "the CSV of the same call has every event";
}

TEST_F(export_command, ShowsItsProgressOnATerminal) {
  // script(1) runs the command on a pseudo-terminal and copies what it prints.
  const std::string command = std::string(PARPERF_SCRIPT) + " -qec '" + PARPERF_COMMAND + " export " +
                              (dir_ / "run").string() + " --csv " + (dir_ / "e.csv").string() +
                              "' /dev/null > " + (dir_ / "tty.txt").string();
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_NE(read_file_bytes(dir_ / "tty.txt").find("parperf export: 100% (24 of 24 events)"),
            std::string::npos)
      << read_file_bytes(dir_ / "tty.txt");
}

TEST_F(export_command, ARunWithoutTracesEndsWithOneLineSayingHowToRecordOne) {
  std::filesystem::remove(dir_ / "run" / "trace.0.ppt");
  std::filesystem::remove(dir_ / "run" / "trace.1.ppt");
  EXPECT_EQ(parperf_export((dir_ / "run").string() + " --csv " + (dir_ / "e.csv").string()), 1);
  EXPECT_EQ(err_, "parperf: " + (dir_ / "run").string() +
                      " has no event trace: record one with parperf run --trace\n");
}

TEST_F(export_command, NoOutputIsAnError) {
  EXPECT_EQ(parperf_export((dir_ / "run").string()), 1);
  EXPECT_EQ(err_,
            "parperf: nothing to write: give at least one of --perfetto, --chrome-json, --otf2, --csv\n");
}

TEST_F(export_command, AnOutputThatCannotBeCreatedIsNamed) {
  const std::filesystem::path bad = dir_ / "missing" / "e.csv";
  EXPECT_EQ(parperf_export((dir_ / "run").string() + " --csv " + bad.string()), 1);
  EXPECT_EQ(err_, "parperf: " + bad.string() + ": cannot create: No such file or directory\n");
}

}  // namespace
}  // namespace parperf::test
