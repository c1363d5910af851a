// Scenario: `parperf run -o TMP/file/sub -- chatty_program`, where TMP/file is a regular file, so
// the run directory can never be created (a read-only directory would not do: the tests may run as
// root, whom permissions do not stop).
//
// Expected, and why (the runtime's contract for an unwritable output directory):
// - the program runs to completion unchanged: exit status 0 and the stdout of the unmeasured run;
// - stderr has exactly one line that names the directory: the runtime warns once, and parperf run
//   does not name it again; with -q nothing else but the program's own stderr is printed;
// - nothing is created and the file in the way is left as it was.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::string kProgram = PARPERF_PROGRAM_RUN_UNWRITABLE_DIR_PROGRAM;

// TMP/file, a regular file with known content, and the impossible run directory below it.
struct Obstacle {
  TempDir tmp;
  std::filesystem::path file = tmp / "file";
  std::filesystem::path directory = file / "sub";
  Obstacle() { std::ofstream(file) << "in the way\n"; }
};

std::vector<std::string> lines_naming(const std::string& text, const std::string& name) {
  std::vector<std::string> found;
  for (const auto& line : lines_of(text)) {
    if (line.find(name) != std::string::npos) found.push_back(line);
  }
  return found;
}

TEST(RunUnwritableDir, ProgramRunsToCompletionWithOneWarning) {
  Obstacle obstacle;
  const auto plain = run_process({kProgram});
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  const auto measured =
      run_process({parperf_command().string(), "run", "-o", obstacle.directory.string(), "--", kProgram});

  EXPECT_EQ(measured.exit_code, 0) << describe(measured);
  EXPECT_EQ(measured.out, plain.out) << "the program must run on unchanged";
  EXPECT_EQ(lines_naming(measured.err, obstacle.directory.string()).size(), 1u)
      << "expected one warning naming " << obstacle.directory << "\n"
      << describe(measured);
  EXPECT_FALSE(std::filesystem::exists(obstacle.directory));
  std::ifstream file(obstacle.file);
  std::string content;
  std::getline(file, content);
  EXPECT_EQ(content, "in the way");
}

TEST(RunUnwritableDir, QuietLeavesOnlyTheRuntimesWarning) {
  Obstacle obstacle;
  const auto plain = run_process({kProgram});
  const auto measured = measure(obstacle.directory, {kProgram});

  EXPECT_EQ(measured.exit_code, 0) << describe(measured);
  auto extra = lines_of(measured.err);
  for (const auto& line : lines_of(plain.err)) std::erase(extra, line);
  ASSERT_EQ(extra.size(), 1u) << "expected the program's stderr plus one warning\n" << describe(measured);
  EXPECT_NE(extra.front().find(obstacle.directory.string()), std::string::npos) << extra.front();
}

}  // namespace
}  // namespace parperf::test
