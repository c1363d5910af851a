// Scenario: `parperf run --sweep` and `parperf predict` on programs whose scaling is known by
// construction (omp_serial_fraction.c, mpi_serial_fraction.c): T(p) = S + W/p with S = 150 ms of
// serial work and W = 1200 ms of work shared by p threads or ranks, so Amdahl's serial fraction is
// f = S / (S + W) = 0.111 and T(16) = 0.225 s.
//
// Tolerances: the work is sleeping, so each part lasts at least what it asks for plus late wake-ups
// of a few ms on the 2 busy cores; over T(p) from 1.35 s to 0.225 s such delays move the fitted f by
// less than 0.01. The bound 0.02 (the issue's) still fails a wrong model: fitting with p off by one
// thread, or taking the total over processors for the execution time, gives f far from 0.11 (e.g.
// f = 0.6 for p·T(p)). The held-out prediction must come within 10 % of the measured time at 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/artifacts.hpp"
#include "support/machine_load.hpp"
#include "support/mpi_run.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

constexpr double kSerialSeconds = 0.150;
constexpr double kWorkSeconds = 1.200;
constexpr double kSerialFraction = kSerialSeconds / (kSerialSeconds + kWorkSeconds);

double constructed_time(double p) { return kSerialSeconds + kWorkSeconds / p; }

// The run directory a sweep makes for `p` processors, first repetition. (Built by appending:
// GCC 12 warns wrongly about "p" + std::to_string(p) + "-r1".)
std::string run_name(int p) {
  std::string name = "p";
  name += std::to_string(p);
  name += "-r1";
  return name;
}

ProcessResult parperf(const std::vector<std::string>& arguments, ProcessOptions options = {}) {
  std::vector<std::string> argv = {parperf_command().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  if (options.timeout_seconds == 60) options.timeout_seconds = 240;
  return run_process(argv, options);
}

json predict_json(const std::vector<std::string>& directories) {
  std::vector<std::string> arguments = {"predict", "--json"};
  arguments.insert(arguments.end(), directories.begin(), directories.end());
  const ProcessResult result = parperf(arguments);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  try {
    return json::parse(result.out);
  } catch (const json::exception& e) {
    ADD_FAILURE() << "parperf predict --json printed no JSON (" << e.what() << "):\n" << result.out;
    return json::object();
  }
}

// The measured median time at `p` of the program in a prediction's JSON, NaN when absent.
double measured_at(const json& fit, double p) {
  for (const json& point : fit["measured"])
    if (point["processors"].get<double>() == p) return point["median"].get<double>();
  return NAN;
}

// A busy machine wakes sleeping threads and ranks late, which makes every run longer than
// constructed: by at most `late` s at a count p, which moves the fitted serial time by about as much
// and the serial fraction by about late / T(1). The bound widens by the largest such delay measured
// (as support/sleep_overshoot.hpp does for the other scenarios), so the test fails a wrong model,
// not a loaded machine.
double lateness_allowance(const json& fit) {
  double late = 0;
  for (const json& point : fit["measured"]) {
    const double p = point["processors"].get<double>();
    late = std::max(late, point["median"].get<double>() - constructed_time(p));
  }
  return late / constructed_time(1);
}

double predicted_at(const json& fit, double p) {
  for (const json& row : fit["predictions"])
    if (row["processors"].get<double>() == p) return row["time"].get<double>();
  return NAN;
}

class ThreadSweep : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    const MachineLoad load;
    result_ = new ProcessResult(parperf({"run", "--sweep", "1,2,4,8,16", "-o", (*dir_ / "sweep").string(),
                                         "--", PARPERF_PROGRAM_OMP_SERIAL_FRACTION}));
    noise_ = load.describe();
  }
  static void TearDownTestSuite() {
    delete result_;
    delete dir_;
  }
  static std::filesystem::path sweep() { return *dir_ / "sweep"; }
  static TempDir* dir_;
  static ProcessResult* result_;
  static std::string noise_;
};
TempDir* ThreadSweep::dir_ = nullptr;
ProcessResult* ThreadSweep::result_ = nullptr;
std::string ThreadSweep::noise_;

TEST_F(ThreadSweep, RunsEveryCountIntoOneDirectoryWithAProgressLineEach) {
  ASSERT_EQ(result_->exit_code, 0) << describe(*result_);
  for (const int p : {1, 2, 4, 8, 16}) {
    const auto run = sweep() / run_name(p);
    EXPECT_TRUE(std::filesystem::exists(run / "profile.0.ppf")) << "no profile of the run at " << p;
    const json info = read_json_file(run / "run.json");
    EXPECT_EQ(info["sweep"]["processors"], p) << info.dump(2);
    EXPECT_EQ(info["sweep"]["unit"], "threads") << info.dump(2);
  }
  const auto lines = lines_of(result_->err);
  const auto progress = std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.starts_with("parperf: sweep run ");
  });
  EXPECT_EQ(progress, 5) << "one progress line per run on stderr:\n" << result_->err;
  EXPECT_NE(result_->out.find("Amdahl"), std::string::npos) << "the sweep ends with the prediction:\n"
                                                            << result_->out;
}

TEST_F(ThreadSweep, PredictsTheConstructedSerialFraction) {
  const json prediction = predict_json({sweep().string()});
  const json& program = prediction["groups"][0]["program"];
  for (const int p : {1, 2, 4, 8, 16})
    EXPECT_GE(measured_at(program, p), 0.98 * constructed_time(p))
        << "the program's time at " << p << " threads is less than it sleeps; " << noise_;
  EXPECT_NEAR(number(program["amdahl"], "serial_fraction"), kSerialFraction,
              0.02 + lateness_allowance(program))
      << "150 ms serial of 1350 ms; " << noise_ << "\n"
      << program.dump(2);
}

TEST_F(ThreadSweep, PredictsAHeldOutCountWithinTenPercent) {
  std::vector<std::string> runs;
  for (const int p : {1, 2, 4, 8}) runs.push_back((sweep() / run_name(p)).string());
  const json held_out = predict_json(runs);
  const json all = predict_json({sweep().string()});
  const double measured = measured_at(all["groups"][0]["program"], 16);
  const double predicted = predicted_at(held_out["groups"][0]["program"], 16);
  EXPECT_NEAR(predicted, measured, 0.10 * measured)
      << "the time at 16 threads predicted from 1-8 threads against the measured one; " << noise_ << "\n"
      << held_out["groups"][0]["program"].dump(2);
}

TEST_F(ThreadSweep, WritesTheSpeedupPlot) {
  const auto svg = *dir_ / "speedup.svg";
  const ProcessResult result = parperf({"predict", "--svg", svg.string(), sweep().string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(text.starts_with("<svg")) << text.substr(0, 200);
  EXPECT_NE(text.find("speedup"), std::string::npos) << "the plot names its axis";
}

TEST(RankSweep, PredictsTheConstructedSerialFractionOfAnMpiProgram) {
  const TempDir dir;
  const MachineLoad load;
  ProcessOptions options;
  options.timeout_seconds = 240;
  const ProcessResult result =
      launch_mpi_command({parperf_command().string(), "run", "--np", "--sweep", "1,2,4,8", "-o",
                          (dir / "sweep").string(), "--", PARPERF_PROGRAM_MPI_SERIAL_FRACTION},
                         options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json info = read_json_file(dir / "sweep" / "p8-r1" / "run.json");
  EXPECT_EQ(info["sweep"]["unit"], "ranks") << info.dump(2);
  EXPECT_EQ(info["processes"], 8) << info.dump(2);
  const json prediction = predict_json({(dir / "sweep").string()});
  const json& program = prediction["groups"][0]["program"];
  EXPECT_NEAR(number(program["amdahl"], "serial_fraction"), kSerialFraction,
              0.02 + lateness_allowance(program))
      << "rank 0 alone works 150 ms of 1350 ms; " << load.describe() << "\n"
      << program.dump(2);
}

TEST(PredictInput, ADirectoryWithoutRunsIsRefusedByName) {
  const TempDir dir;
  std::filesystem::create_directories(dir / "empty");
  const ProcessResult result = parperf({"predict", (dir / "empty").string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_NE(result.err.find("empty holds no run"), std::string::npos) << result.err;
}

TEST(PredictInput, OneRunGivesNoModelButSaysWhy) {
  const TempDir dir;
  const ProcessResult run = parperf(
      {"run", "-q", "-o", (dir / "one").string(), "--", PARPERF_PROGRAM_OMP_SERIAL_FRACTION, "10", "40"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const ProcessResult result = parperf({"predict", (dir / "one").string()});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_NE(result.out.find("one processor count"), std::string::npos)
      << "a single count cannot give a model, and the prediction must say so:\n"
      << result.out;
}

}  // namespace
}  // namespace parperf::test
