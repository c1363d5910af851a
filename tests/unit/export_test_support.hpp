// Exporting the hand-built run of export_test_run.hpp in the tests: load it as `parperf export`
// does, with the one message of the run as a flow arrow and its samples, and write it with the given
// writers.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/run_loader.hpp"
#include "analysis/site_table.hpp"
#include "analysis/trace/trace_samples.hpp"
#include "export/export_timeline.hpp"
#include "unit/export_test_run.hpp"

namespace parperf::test {

// The message of the run, rank 0's MPI_Send at 13 ms to the end of rank 1's MPI_Recv at 15 ms.
inline std::vector<exports::Flow> message_flows() {
  return {exports::Flow{{0, 0, 13 * kMsNs}, {1, 0, 15 * kMsNs}, "MPI_Send → MPI_Recv"}};
}

struct LoadedRun {
  explicit LoadedRun(const std::filesystem::path& directory)
      : run(analysis::load_run(directory)),
        traces(exports::load_exported_traces(run)),
        names(traces, sites) {}
  analysis::RunData run;
  analysis::TraceRun traces;
  analysis::SiteTable sites;  // nothing to symbolize: the sites name their files
  exports::TimelineNames names;
};

// Exports `directory` through the writers `make` builds from the run's names; returns the number
// of events exported.
template <class... Make>
std::uint64_t export_with(const std::filesystem::path& directory, const std::vector<exports::Flow>& flows,
                          Make&&... make) {
  LoadedRun loaded(directory);
  std::vector<std::unique_ptr<exports::TimelineWriter>> writers;
  (writers.push_back(make(loaded.names)), ...);
  std::vector<exports::TimelineWriter*> outputs;
  for (auto& w : writers) outputs.push_back(w.get());
  const analysis::TraceSamples samples = analysis::load_trace_samples(loaded.traces);
  return exports::export_timeline(loaded.traces, loaded.names, flows, outputs, {}, 1 << 18, &samples);
}

// A fresh, empty directory under the temporary one, named after `what` and this process.
inline std::filesystem::path test_directory(const std::string& what) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("parperf-export-" + std::to_string(::getpid()) + "-" + what);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The whole content of a file, as bytes.
inline std::string read_file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// otf2-print's listing of the archive `dir`/otf2 (events, or with `options` the definitions), written
// through `dir`/printed.txt; a refusal or a warning of otf2-print's fails the test.
inline std::string otf2_print(const std::filesystem::path& dir, const std::string& options = "") {
  const auto out = dir / "printed.txt";
  const std::string command = std::string(PARPERF_OTF2_PRINT) + " " + options + " " +
                              (dir / "otf2" / "traces.otf2").string() + " > " + out.string() + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string text = read_file_bytes(out);
  EXPECT_EQ(status, 0) << "otf2-print refused the archive:\n" << text;
  EXPECT_EQ(text.find("warning"), std::string::npos) << "otf2-print found the archive wrong:\n" << text;
  return text;
}

// A test of the hand-built run, written in dir_ / "run"; dir_ goes when the test ends.
class ExportRunTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_directory(testing::UnitTest::GetInstance()->current_test_info()->name());
    rank1_before_last_block_ = write_export_test_run(dir_ / "run");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::uint64_t rank1_before_last_block_ = 0;  // the size of trace.1.ppt before its last block
};

}  // namespace parperf::test
