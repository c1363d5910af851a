// `parperf run --trace --local-dir DIR`: the per-run folder under a shared DIR has a name no other
// user can guess and create first, and only this user's regular trace files are moved from it into
// the run directory, never a link a reader would follow (the trace.0.ppt -> /etc/shadow).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/trace_recording.hpp"
#include "support/temp_dir.hpp"

namespace parperf::cli {
namespace {

namespace fs = std::filesystem;

TEST(LocalTraceDirectory, ItsNameCannotBeGuessedFromThePid) {
  TraceOptions options;
  options.trace = true;
  options.local_dir = "/tmp";
  const fs::path first = local_trace_directory(options);
  const fs::path second = local_trace_directory(options);
  const std::string predictable = "parperf-trace-" + std::to_string(::getpid());
  EXPECT_TRUE(first.filename().string().starts_with(predictable + "-")) << first;
  EXPECT_NE(first, second) << "two runs of the same process must not share a guessable folder";
}

TEST(LocalTraceDirectory, APlantedLinkIsNotMovedIntoTheRunDirectory) {
  const test::TempDir tmp;
  const fs::path local = tmp / "local";
  const fs::path run = tmp / "run";
  fs::create_directories(local);
  fs::create_directories(run);
  std::ofstream(tmp / "secret") << "not a trace";
  std::ofstream(local / "trace.0.ppt") << "the trace this run wrote";
  fs::create_symlink(tmp / "secret", local / "trace.1.ppt");
  move_local_traces(local, run);
  EXPECT_TRUE(fs::is_regular_file(run / "trace.0.ppt")) << "the run's own trace is moved";
  EXPECT_FALSE(fs::exists(fs::symlink_status(run / "trace.1.ppt")))
      << "the planted link stays out of the run";
  EXPECT_TRUE(fs::is_regular_file(tmp / "secret"));
}

}  // namespace
}  // namespace parperf::cli
