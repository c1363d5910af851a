// A traced program killed with SIGKILL in the middle of writing a block (runtime_killed_trace_shim.c
// kills it there) leaves a trace that reads up to its last complete block and says it was cut short,
// never that it is corrupt (docs/format.md, "Events").
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "format/profile_reader.hpp"
#include "format/trace_file.hpp"

namespace parperf::format {
namespace {

namespace fs = std::filesystem;

TEST(RuntimeKilledTrace, ATraceKilledInsideABlockReadsUpToItsLastCompleteBlock) {
  const fs::path dir = fs::path(std::getenv("PARPERF_DIR"));
  fs::remove_all(dir);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    setenv("LD_PRELOAD", KILLED_TRACE_SHIM, 1);
    execl(KILLED_TRACE_PROGRAM, KILLED_TRACE_PROGRAM, static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the program was to be killed inside its trace writer's third large write; status " << status;

  try {
    const TraceFile trace = read_trace_file(dir / "trace.0.ppt");
    EXPECT_GE(trace.blocks.size(), 2u) << "the two blocks written whole before the kill";
    EXPECT_NE(trace.cut_short.find("still the placeholder"), std::string::npos)
        << "the trace must say where it was cut: '" << trace.cut_short << "'";
  } catch (const FormatError& e) {
    FAIL() << "the trace of the killed program was refused: " << e.what();
  }

  // The report of the run (the profile the program flushed, the trace as it was left).
  for (const char* option : {"--partial", "--json"}) {
    const std::string command = std::string(PARPERF_COMMAND) + " report " + option + " '" + dir.string() +
                                "' > /dev/null 2> '" + (dir / "report.err").string() + "'";
    const int report_status = std::system(command.c_str());
    std::ifstream errors(dir / "report.err");
    const std::string said{std::istreambuf_iterator<char>(errors), std::istreambuf_iterator<char>()};
    EXPECT_TRUE(WIFEXITED(report_status) && WEXITSTATUS(report_status) == 0)
        << "parperf report " << option << " refused the killed run: " << said;
  }
}

}  // namespace
}  // namespace parperf::format
