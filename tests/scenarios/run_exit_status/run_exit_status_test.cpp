// Scenario: how `parperf run` ends. Scripts and batch jobs test its exit status as they would the
// program's, so it must be the program's own:
// - `exit 3` gives 3 (run.json: exit_code 3, signal null);
// - a program killed by signal N gives 128+N, as a shell reports it: SIGTERM 143, SIGABRT 134, with
//   one line naming the signal; the runtime writes its profile on both signals before it re-raises,
//   so the run directory still has one;
// - a program that cannot be started gives 127 and `parperf: cannot run 'prog': <reason>`, and no
//   run directory (the runtime never ran);
// - a program that lowers RLIMIT_FSIZE below the profile's size ends as it would unmeasured (exit 0,
//   its buffered output written): the runtime's write fails with "File too large", is warned of and
//   leaves no temporary file, and SIGXFSZ never reaches the program;
// - a signal sent to parperf alone (SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2) is passed on to the
//   program, which dies of it as it would unmeasured (128+N), while parperf lives on to say so (and
//   to write run.json beside the profile the runtime writes on SIGINT);
// - when parperf is killed (SIGKILL), the program dies too rather than running on, orphaned;
// - parperf's own failure (no runtime library) gives 125, and a command line without a program 2.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

const std::string kProgram = PARPERF_PROGRAM_RUN_EXIT_STATUS_PROGRAM;

ProcessResult parperf_run(const std::filesystem::path& directory, const std::vector<std::string>& command,
                          const ProcessOptions& options = {}) {
  std::vector<std::string> argv = {parperf_command().string(), "run", "-o", directory.string(), "--"};
  argv.insert(argv.end(), command.begin(), command.end());
  return run_process(argv, options);
}

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& each : lines_of(text)) {
    if (each == line) return true;
  }
  return false;
}

TEST(RunExitStatus, ExitCodeOfTheProgramPropagates) {
  TempDir tmp;
  const auto result = parperf_run(tmp / "run", {kProgram, "exit", "3"});
  EXPECT_EQ(result.exit_code, 3) << describe(result);
  auto info = read_json_file(tmp / "run" / "run.json");
  EXPECT_EQ(info["exit_code"], 3);
  EXPECT_TRUE(info["signal"].is_null());
}

TEST(RunExitStatus, ProgramKilledBySigtermGives143) {
  TempDir tmp;
  const auto result = parperf_run(tmp / "run", {kProgram, "raise", "TERM"});
  EXPECT_EQ(result.exit_code, 128 + 15) << describe(result);
  EXPECT_TRUE(has_line(result.err, "parperf: program terminated by signal 15 (SIGTERM)")) << describe(result);
  auto info = read_json_file(tmp / "run" / "run.json");
  EXPECT_TRUE(info["exit_code"].is_null());
  EXPECT_EQ(info["signal"], 15);
  EXPECT_EQ(info["profiles"], nlohmann::json::array({"profile.0.ppf"})) << "the runtime writes on SIGTERM";
}

TEST(RunExitStatus, ProgramThatAbortsGives134) {
  TempDir tmp;
  const auto result = parperf_run(tmp / "run", {kProgram, "raise", "ABRT"});
  EXPECT_EQ(result.exit_code, 128 + 6) << describe(result);
  EXPECT_TRUE(has_line(result.err, "parperf: program terminated by signal 6 (SIGABRT)")) << describe(result);
  auto info = read_json_file(tmp / "run" / "run.json");
  EXPECT_EQ(info["signal"], 6);
  EXPECT_EQ(info["profiles"], nlohmann::json::array({"profile.0.ppf"})) << "the runtime writes on SIGABRT";
}

// A program that sends itself a fault signal with raise() dies of it, as it does unmeasured; the
// runtime's handler must not take it for a fault that re-executes (the program went on, exit 2).
TEST(RunExitStatus, FaultSignalsTheProgramRaisesItselfEndIt) {
  for (const auto& [name, number] : {std::pair{"SEGV", 11}, std::pair{"BUS", 7}, std::pair{"FPE", 8}}) {
    TempDir tmp;
    const auto result = parperf_run(tmp / "run", {kProgram, "raise", name});
    EXPECT_EQ(result.exit_code, 128 + number) << "raise(SIG" << name << "): " << describe(result);
    auto info = read_json_file(tmp / "run" / "run.json");
    EXPECT_EQ(info["signal"], number) << name;
    EXPECT_EQ(info["profiles"], nlohmann::json::array({"profile.0.ppf"})) << "the profile is written first";
  }
}

// `kill -SEGV` / `kill -BUS` from outside end the plain program; the measured one must end too.
TEST(RunExitStatus, FaultSignalsSentFromOutsideEndTheProgram) {
  for (const auto& [signal_name, number] : {std::pair{"SEGV", SIGSEGV}, std::pair{"BUS", SIGBUS}}) {
    TempDir tmp;
    const auto pid_file = tmp / "pid";
    // A shell starts parperf in the background and signals the program once it says it waits.
    const std::string script =
        "\"$0\" run -q -o \"$1\" -- \"$2\" wait - > \"$3\" & parent=$!; "
        "for i in $(seq 300); do grep -q waiting \"$3\" 2>/dev/null && break; sleep 0.1; done; "
        "pkill -" +
        std::string(signal_name) + " -P $parent; wait $parent";
    const auto result = run_process({"/bin/sh", "-c", script, parperf_command().string(),
                                     (tmp / "run").string(), kProgram, (tmp / "out").string()});
    EXPECT_EQ(result.exit_code, 128 + number) << "kill -" << signal_name << ": " << describe(result);
  }
}

TEST(RunExitStatus, FileSizeLimitFailsTheProfileNotTheProgram) {
  TempDir tmp;
  const auto result = parperf_run(tmp / "run", {kProgram, "limit", "100"});
  EXPECT_EQ(result.exit_code, 0) << "the program returned 0; 153 is death by SIGXFSZ: " << describe(result);
  EXPECT_NE(result.out.find("ending_program: last words, still buffered at exit"), std::string::npos)
      << "the program's buffered output must still be written at its exit: " << describe(result);
  EXPECT_NE(result.err.find("cannot write the profile to '"), std::string::npos) << describe(result);
  EXPECT_NE(result.err.find("File too large"), std::string::npos) << describe(result);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(tmp.path()))
    EXPECT_EQ(entry.path().string().find(".partial"), std::string::npos)
        << "a failed write leaves no temporary file: " << entry.path();
}

// A shell with job control (so the background parperf does not start with SIGINT ignored) starts
// parperf, waits for the program to say it waits, then runs `then` with $parent = parperf's pid.
ProcessResult with_waiting_program(const TempDir& tmp, const std::string& then) {
  const std::string script =
      "ulimit -c 0; set -m; \"$0\" run -q -o \"$1\" -- \"$2\" wait - > \"$3\" & parent=$!; "
      "for i in $(seq 300); do grep -q waiting \"$3\" 2>/dev/null && break; sleep 0.1; done; " +
      then;
  return run_process({"/bin/bash", "-c", script, parperf_command().string(), (tmp / "run").string(), kProgram,
                      (tmp / "out").string()});
}

TEST(RunExitStatus, SignalsSentToParperfAlonePassOnToTheProgram) {
  for (const auto& [name, number] :
       {std::pair{"INT", SIGINT}, std::pair{"HUP", SIGHUP}, std::pair{"QUIT", SIGQUIT},
        std::pair{"USR1", SIGUSR1}, std::pair{"USR2", SIGUSR2}}) {
    TempDir tmp;
    const auto result = with_waiting_program(tmp, "kill -" + std::string(name) + " $parent; wait $parent");
    EXPECT_EQ(result.exit_code, 128 + number)
        << "kill -" << name
        << " <parperf>: the program must die of it (66: it ran on to its end): " << describe(result);
    EXPECT_TRUE(has_line(
        result.err, "parperf: program terminated by signal " + std::to_string(number) + " (SIG" + name + ")"))
        << "kill -" << name << ": parperf must live on and see the program die of it: " << describe(result);
  }
  // SIGINT is one the runtime writes its profile on: parperf then writes run.json as well.
  TempDir tmp;
  const auto result = with_waiting_program(tmp, "kill -INT $parent; wait $parent");
  ASSERT_TRUE(std::filesystem::exists(tmp / "run" / "run.json")) << describe(result);
  EXPECT_EQ(read_json_file(tmp / "run" / "run.json")["signal"], SIGINT);
}

TEST(RunExitStatus, ProgramDiesWithParperf) {
  TempDir tmp;
  // The program waits 10 s at most; 5 s after parperf's death it must be gone (or a zombie).
  const auto result = with_waiting_program(
      tmp,
      "child=$(pgrep -P $parent); [ -n \"$child\" ] || { echo no program; exit 2; }; "
      "kill -KILL $parent; wait $parent; "
      "for i in $(seq 50); do state=$(sed 's/.*) //' /proc/$child/stat 2>/dev/null | cut -c1); "
      "if [ -z \"$state\" ] || [ \"$state\" = Z ]; then echo gone; exit 0; fi; sleep 0.1; done; "
      "echo still running; kill -KILL $child; exit 1");
  EXPECT_EQ(result.out, "gone\n") << "the program must not outlive a killed parperf: " << describe(result);
}

TEST(RunExitStatus, MissingProgramGives127) {
  TempDir tmp;
  const auto missing = (tmp / "no-such-program").string();
  const auto result = parperf_run(tmp / "run", {missing, "an argument"});
  EXPECT_EQ(result.exit_code, 127) << describe(result);
  EXPECT_EQ(result.err, "parperf: cannot run '" + missing + "': No such file or directory\n");
  EXPECT_FALSE(std::filesystem::exists(tmp / "run")) << "nothing ran, so there is no run directory";
}

TEST(RunExitStatus, ProgramNotInPathGives127) {
  TempDir tmp;
  const auto result = parperf_run(tmp / "run", {"parperf-no-such-program-in-path"});
  EXPECT_EQ(result.exit_code, 127) << describe(result);
  EXPECT_TRUE(has_line(result.err,
                       "parperf: cannot run 'parperf-no-such-program-in-path': No such file or directory"))
      << describe(result);
}

TEST(RunExitStatus, MissingRuntimeLibraryGives125) {
  TempDir tmp;
  ProcessOptions options;
  const auto library = (tmp / "libparperf.so").string();
  options.env = {{"PARPERF_LIBRARY", library}};
  const auto result = parperf_run(tmp / "run", {kProgram, "exit", "0"}, options);
  EXPECT_EQ(result.exit_code, 125) << describe(result);
  EXPECT_TRUE(result.out.empty()) << "the program must not run unmeasured";
  EXPECT_NE(result.err.find(library), std::string::npos) << "the message must name the library it looked for";
}

TEST(RunExitStatus, NoProgramIsAUsageError) {
  const auto result = run_process({parperf_command().string(), "run"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  EXPECT_EQ(result.err.rfind("parperf: ", 0), 0u) << describe(result);
}

}  // namespace
}  // namespace parperf::test
