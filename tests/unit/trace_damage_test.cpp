// Damaged event traces whose files still read (their events re-encoded, their checksums right: only
// the values are wrong) must never crash, hang or corrupt memory in `parperf report` (text, JSON,
// HTML), `parperf whatif` or `parperf export` (Perfetto, Chrome JSON, OTF2, CSV): each command either
// ends with its output (JSON that parses) or refuses with "parperf: " and what is wrong. Three
// hand-built runs (MPI with OpenMP, locks and puts, clocks the repair must move; OpenSHMEM collectives
// over active sets; a random hybrid run) written as `parperf run --trace` leaves them, each mutant
// one or two of their trace files damaged and, one in three, a profile beside them (what the events
// mean: a site's kind, a communicator) (trace_file_damage.hpp), every command run in this process
// as the `parperf` command runs it. Fixed seeds; runs under ASan/UBSan too, where the fuzzing that
// this test keeps found a signed overflow in the Perfetto export (a put to rank 2^63-1).
// PARPERF_TRACE_MUTANTS=N tries N mutants instead of the default.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/application.hpp"
#include "format/profile_reader.hpp"
#include "support/temp_dir.hpp"
#include "unit/format_test_profiles.hpp"
#include "unit/trace_file_damage.hpp"

namespace parperf::test {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int status = 0;
  std::string out, err;
};

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `parperf ARGUMENTS...` in this process, its standard output and error caught in files.
Outcome parperf(const std::vector<std::string>& arguments, const fs::path& scratch) {
  std::vector<std::string> words = {"parperf"};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  std::fflush(stdout);
  std::fflush(stderr);
  const int saved_out = dup(1), saved_err = dup(2);
  const int out = open((scratch / "out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err = open((scratch / "err").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  dup2(out, 1);
  dup2(err, 2);
  Outcome o;
  o.status = cli::run_command_line(static_cast<int>(argv.size()), argv.data());
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  for (int fd : {out, err, saved_out, saved_err}) close(fd);
  o.out = contents(scratch / "out");
  o.err = contents(scratch / "err");
  return o;
}

int mutants() {
  const char* asked = std::getenv("PARPERF_TRACE_MUTANTS");
  return asked ? std::atoi(asked) : 150;
}

TEST(TraceDamage, DamagedTracesNeverBreakReportWhatIfOrExport) {
  TempDir tmp;
  std::vector<fs::path> pristine;
  {
    TraceRunBuilder rich, shmem, hybrid;
    const std::pair<const char*, analysis::TraceRun> runs[] = {{"rich", rich_run(rich, 4)},
                                                               {"shmem", shmem_run(shmem, 6)},
                                                               {"hybrid", random_hybrid_run(hybrid, 7)}};
    for (const auto& [name, run] : runs) {
      write_traced_run(tmp / name, run);
      pristine.push_back(tmp / name);
    }
  }
  const fs::path scratch = tmp / "scratch";
  fs::create_directories(scratch);
  SeededRandom random{0x7ace'da3a'6e00'0001};
  std::map<std::string, int> refused;  // by what the refusal says, its numbers aside
  int accepted = 0, refusals = 0;
  for (int mutant = 0; mutant < mutants(); ++mutant) {
    const fs::path& source = pristine[static_cast<std::size_t>(mutant) % pristine.size()];
    const fs::path run = tmp / "mutant";
    fs::remove_all(run);
    fs::copy(source, run);
    std::vector<fs::path> traces;
    for (const auto& entry : fs::directory_iterator(run))
      if (entry.path().extension() == ".ppt") traces.push_back(entry.path());
    std::sort(traces.begin(), traces.end());
    if (random(3) == 0) {  // the profile beside a trace: what its events mean
      std::vector<fs::path> profiles;
      for (const auto& entry : fs::directory_iterator(run))
        if (entry.path().extension() == ".ppf") profiles.push_back(entry.path());
      std::sort(profiles.begin(), profiles.end());
      const fs::path& file = profiles[random(static_cast<std::uint32_t>(profiles.size()))];
      format::Profile profile = format::read_profile_file(file);
      damage_profile(profile, random);
      write_profile_file(file, profile);
    }
    for (std::uint32_t damaged = 1 + random(2); damaged > 0; --damaged) {
      const fs::path& file = traces[random(static_cast<std::uint32_t>(traces.size()))];
      format::TraceFile trace = format::read_trace_file(file);  // a damaged file that still reads
      damage_trace(trace, random);
      write_trace_file(file, trace);
    }
    const std::string dir = run.string(),
                      where = "mutant " + std::to_string(mutant) + " of " + source.string();
    const std::vector<std::vector<std::string>> commands = {
        {"report", "--json", dir},
        {"report", dir},
        {"report", "--html", (scratch / "page.html").string(), dir},
        {"whatif", "--json", dir},
        {"whatif", "--json", "--ideal-network", "--scale", "compute=2", dir},
        {"export", "--perfetto", (scratch / "t.pftrace").string(), "--chrome-json",
         (scratch / "t.json").string(), "--csv", (scratch / "t.csv").string(), dir},
        {"export", "--otf2", (scratch / "otf2").string(), dir}};
    for (const std::vector<std::string>& command : commands) {
      fs::remove_all(scratch / "otf2");
      const Outcome o = parperf(command, scratch);
      const std::string what = where + ": parperf " + command[0] + " " + command[1];
      if (o.status == 0) {
        ++accepted;
        if (command[1] == "--json") {
          EXPECT_FALSE(nlohmann::json::parse(o.out, nullptr, false).is_discarded())
              << what << " printed JSON that does not parse:\n"
              << o.out.substr(0, 2000);
        }
        continue;
      }
      ++refusals;
      EXPECT_EQ(o.status, 1) << what << ": " << o.err;
      // The refusal's reason is its last line (warnings may come before it).
      std::string gist = o.err.substr(0, o.err.find_last_not_of('\n') + 1);
      gist = gist.substr(gist.rfind('\n') + 1);
      EXPECT_TRUE(gist.rfind("parperf: ", 0) == 0 && gist.rfind("parperf: warning", 0) != 0)
          << what << " refused without saying why: " << o.err;
      for (std::size_t at; (at = gist.find(dir)) != std::string::npos;) gist.replace(at, dir.size(), "RUN");
      // "event 12 of thread 0 lasts 3.5e+09 s" -> "event N of thread N lasts N s": one line a reason.
      std::string numbers_as_n;
      const auto digit = [&](std::size_t k) { return k < gist.size() && gist[k] >= '0' && gist[k] <= '9'; };
      for (std::size_t i = 0; i < gist.size(); ++i) {
        if (!digit(i)) {
          numbers_as_n += gist[i];
          continue;
        }
        numbers_as_n += 'N';
        while (digit(i + 1) || (gist[i + 1] == '.' && digit(i + 2)) ||
               (gist[i + 1] == 'e' && i + 3 < gist.size() && digit(i + 3)))
          i += digit(i + 1) ? 1 : gist[i + 1] == '.' ? 2 : 3;
      }
      ++refused[numbers_as_n];
    }
  }
  std::string summary;
  for (const auto& [gist, n] : refused) summary += "  " + std::to_string(n) + "  " + gist + "\n";
  // Most damage leaves a run the commands analyse: were it all refused, the analyses behind the
  // readers' checks would go untested.
  EXPECT_GT(accepted, 2 * refusals) << "refusals:\n" << summary;
  std::printf("%d commands ended with their output, %d refused:\n%s", accepted, refusals, summary.c_str());
}

// Each thread's blocks are numbered from 0 as the writer wrote them. A number given twice would count
// the block's events twice (a repeated block was analysed as it came: its messages matched twice, a
// cycle broken): refused, naming the file and the thread. A number skipped is a block that never
// reached the file: the commands say which, and go on.
TEST(TraceDamage, ABlockNumberedTwiceIsRefusedAndOneSkippedIsSaid) {
  TempDir tmp;
  TraceRunBuilder builder;
  write_traced_run(tmp / "run", rich_run(builder, 3));
  const fs::path file = tmp / "run" / "trace.1.ppt";
  const format::TraceFile intact = format::read_trace_file(file);
  ASSERT_FALSE(intact.blocks.empty());
  const std::uint32_t thread = intact.blocks.front().header.thread;

  format::TraceFile repeated = intact;
  repeated.blocks.push_back(intact.blocks.front());
  write_trace_file(file, repeated);
  for (const char* command : {"report", "whatif", "export"}) {
    std::vector<std::string> arguments = {command, (tmp / "run").string()};
    if (std::string(command) == "export")
      arguments.insert(arguments.end(), {"--csv", (tmp / "t.csv").string()});
    const Outcome o = parperf(arguments, tmp.path());
    EXPECT_EQ(o.status, 1) << command << ": " << o.err;
    EXPECT_EQ(o.err, "parperf: " + file.string() + ": corrupt: thread " + std::to_string(thread) +
                         " has two blocks of events numbered 0\n")
        << command;
  }

  format::TraceFile skipped = intact;
  skipped.blocks.front().header.sequence = 3;
  write_trace_file(file, skipped);
  const std::string said =
      "parperf: warning: trace.1.ppt: thread " + std::to_string(thread) +
      " lacks 3 blocks of events (numbers 0 to 2; lost while tracing, or cut out of the file)";
  for (const char* command : {"whatif", "export"}) {
    std::vector<std::string> arguments = {command, (tmp / "run").string()};
    if (std::string(command) == "export")
      arguments.insert(arguments.end(), {"--csv", (tmp / "t.csv").string()});
    const Outcome o = parperf(arguments, tmp.path());
    EXPECT_EQ(o.status, 0) << command << ": " << o.err;
    EXPECT_NE(o.err.find(said), std::string::npos) << command << ": " << o.err;
  }
}

}  // namespace
}  // namespace parperf::test
