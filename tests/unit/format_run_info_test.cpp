// run.json (format/run_info.hpp): every field survives writing and reading, a field of the wrong
// type is refused naming it, unknown fields are left out, and a later major format is refused.
#include <gtest/gtest.h>

#include <string>

#include "format/run_info.hpp"

namespace parperf::format {
namespace {

RunInfo sample_info() {
  RunInfo info;
  info.parperf_version = "0.9.0";
  info.command = {"./app", "-n", "4"};
  info.working_directory = "/home/user";
  info.hostname = "node1";
  info.start_unix_s = 1764000000.25;
  info.wall_time_s = 1.5;
  info.signal = 11;
  info.processes = 4;
  info.mpi_collector = "/usr/lib/libparperf-mpi.so";
  info.openmp_runtime = "libomp";
  info.profiles = {"profile.0.ppf", "profile.1.ppf"};
  info.environment = {{"PARPERF_DIR", "/tmp/x"}};
  info.parameters = {{"n", "4096"}};
  info.sweep = SweepPoint{.processors = 8, .unit = "ranks", .repetition = 2};
  info.cores = HostCores{.online = 16, .allowed = 4};
  return info;
}

TEST(RunInfoFile, EveryFieldSurvivesTheRoundTrip) {
  const RunInfo info = sample_info();
  const RunInfo back = parse_run_info(run_info_json(info));
  EXPECT_EQ(back.format, kRunInfoFormat);
  EXPECT_EQ(back.parperf_version, info.parperf_version);
  EXPECT_EQ(back.command, info.command);
  EXPECT_EQ(back.working_directory, info.working_directory);
  EXPECT_EQ(back.hostname, info.hostname);
  EXPECT_DOUBLE_EQ(back.start_unix_s, info.start_unix_s);
  EXPECT_DOUBLE_EQ(back.wall_time_s, info.wall_time_s);
  EXPECT_FALSE(back.exit_code.has_value()) << "a signal ended the program: the exit code is null";
  EXPECT_EQ(back.signal, info.signal);
  EXPECT_EQ(back.processes, info.processes);
  EXPECT_EQ(back.mpi_collector, info.mpi_collector);
  EXPECT_EQ(back.openmp_runtime, info.openmp_runtime);
  EXPECT_EQ(back.profiles, info.profiles);
  EXPECT_EQ(back.environment, info.environment);
  EXPECT_EQ(back.parameters, info.parameters);
  ASSERT_TRUE(back.sweep.has_value()) << "the sweep point was lost";
  EXPECT_EQ(back.sweep->processors, 8);
  EXPECT_EQ(back.sweep->unit, "ranks");
  EXPECT_EQ(back.sweep->repetition, 2);
  ASSERT_TRUE(back.cores.has_value()) << "the host's cores were lost";
  EXPECT_EQ(back.cores->online, 16);
  EXPECT_EQ(back.cores->allowed, 4);
}

// An older parperf wrote no cores: unknown, not an error. A count below 1 cannot be.
TEST(RunInfoFile, CoresAreOptionalAndPositive) {
  EXPECT_FALSE(parse_run_info("{}").cores.has_value());
  EXPECT_FALSE(parse_run_info(R"({"cores": null})").cores.has_value());
  EXPECT_THROW(parse_run_info(R"({"cores": {"online": 8, "allowed": 0}})"), RunInfoError);
  EXPECT_THROW(parse_run_info(R"({"cores": 8})"), RunInfoError);
}

TEST(RunInfoFile, ASweepPointThatCannotBeIsRefusedByName) {
  try {
    parse_run_info(R"({"sweep": {"processors": 0, "unit": "threads", "repetition": 1}})");
    FAIL() << "a sweep of 0 processors was accepted";
  } catch (const RunInfoError& e) {
    EXPECT_STREQ(e.what(), "'sweep.processors' is not a positive number");
  }
  EXPECT_THROW(parse_run_info(R"({"sweep": {"processors": 2, "unit": "cores"}})"), RunInfoError);
  EXPECT_THROW(parse_run_info(R"({"sweep": 4})"), RunInfoError);
  EXPECT_FALSE(parse_run_info(R"({"sweep": null})").sweep.has_value());
}

TEST(RunInfoFile, TheWrittenKeysAreTheDocumentedOnesInOrder) {
  const std::string text = run_info_json(sample_info());
  std::size_t at = 0;
  for (const char* key : {"parperf_run_format", "parperf_version", "command", "working_directory", "hostname",
                          "start_unix_s", "wall_time_s", "exit_code", "signal", "processes", "mpi_collector",
                          "openmp_runtime", "profiles", "environment", "parameters", "sweep", "cores"}) {
    const std::size_t found = text.find('"' + std::string(key) + '"', at);
    ASSERT_NE(found, std::string::npos) << "run.json lacks \"" << key << "\" (or has it out of order):\n"
                                        << text;
    at = found;
  }
}

TEST(RunInfoFile, AFieldOfTheWrongTypeIsRefusedByName) {
  try {
    parse_run_info(R"({"processes": "four"})");
    FAIL() << "a string for 'processes' was accepted";
  } catch (const RunInfoError& e) {
    EXPECT_STREQ(e.what(), "'processes' is not a number");
  }
  try {
    parse_run_info(R"({"command": ["./app", 3]})");
    FAIL() << "a number in 'command' was accepted";
  } catch (const RunInfoError& e) {
    EXPECT_STREQ(e.what(), "'command' is not a list of strings");
  }
  EXPECT_THROW(parse_run_info(R"({"environment": {"PARPERF_DIR": 1}})"), RunInfoError);
  EXPECT_THROW(parse_run_info("[1, 2]"), RunInfoError);
  EXPECT_THROW(parse_run_info("{\"command\": ["), RunInfoError);
}

TEST(RunInfoFile, MissingAndUnknownFieldsAreTolerated) {
  const RunInfo info = parse_run_info(R"({"command": "./app -x", "added_later": {"x": 1}})");
  EXPECT_EQ(info.command, std::vector<std::string>{"./app -x"}) << "a single string is a command of one word";
  EXPECT_EQ(info.processes, 1);
  EXPECT_TRUE(info.profiles.empty());
}

TEST(RunInfoFile, ALaterMajorFormatIsRefused) {
  try {
    parse_run_info(R"({"parperf_run_format": 2})");
    FAIL() << "run format 2 was read as format 1";
  } catch (const RunInfoError& e) {
    EXPECT_NE(std::string(e.what()).find("later parperf (run format 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parperf::format
