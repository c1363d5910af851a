// Smoke test of the MPI test programs (this folder; each source states its ground truth): every
// program runs under plain `mpirun` (nothing of parperf) with the ranks the ground-truth tests use,
// exits as it should and prints what it should, quickly. The failing ones (MPI_Abort, a rank killed
// by a signal) must end the job with a failure rather than hang it. Also: the harness kills a hung
// MPI job whole, and the SITE:<name> markers the ground-truth tests look up name one line each.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "support/mpi_run.hpp"
#include "support/process.hpp"
#include "support/source_markers.hpp"

namespace parperf::test {
namespace {

struct Program {
  std::string name;  // for the test's name
  std::string path;
  int ranks;
  std::vector<std::string> arguments;
  std::vector<std::pair<std::string, std::string>> env;
  bool fails;                   // ends the job with MPI_Abort or a signal
  std::string expected_output;  // stdout, when the program does not fail
};

const std::vector<Program>& programs() {
  static const std::vector<Program> all = {
      {"late_sender",
       PARPERF_PROGRAM_MPI_LATE_SENDER,
       2,
       {},
       {},
       false,
       "late_sender: 1 messages, checksum 2016\n"},
      {"late_sender_3_repetitions",
       PARPERF_PROGRAM_MPI_LATE_SENDER,
       2,
       {"3"},
       {},
       false,
       "late_sender: 3 messages, checksum 6048\n"},
      {"imbalanced_barrier_2_ranks",
       PARPERF_PROGRAM_MPI_IMBALANCED_BARRIER,
       2,
       {},
       {},
       false,
       "imbalanced_barrier: 2 ranks, 3 barriers\n"},
      {"imbalanced_barrier_3_ranks",
       PARPERF_PROGRAM_MPI_IMBALANCED_BARRIER,
       3,
       {},
       {},
       false,
       "imbalanced_barrier: 3 ranks, 3 barriers\n"},
      {"imbalanced_barrier_4_ranks",
       PARPERF_PROGRAM_MPI_IMBALANCED_BARRIER,
       4,
       {},
       {},
       false,
       "imbalanced_barrier: 4 ranks, 3 barriers\n"},
      {"rooted_collectives",
       PARPERF_PROGRAM_MPI_ROOTED_COLLECTIVES,
       3,
       {},
       {},
       false,
       "rooted_collectives: 3 ranks, 2 repetitions, sum 144\n"},
      {"waitall_exchange",
       PARPERF_PROGRAM_MPI_WAITALL_EXCHANGE,
       3,
       {},
       {},
       false,
       "waitall_exchange: 3 ranks, 5 rounds, checked\n"},
      {"nonblocking_overlap",
       PARPERF_PROGRAM_MPI_NONBLOCKING_OVERLAP,
       2,
       {},
       {},
       false,
       "nonblocking_overlap: 4 exchanges of 4194304 bytes, checked\n"},
      {"nonblocking_overlap_ring_of_3",
       PARPERF_PROGRAM_MPI_NONBLOCKING_OVERLAP,
       3,
       {"2", "10", "100000"},
       {},
       false,
       "nonblocking_overlap: 2 exchanges of 100000 bytes, checked\n"},
      {"two_communicators",
       PARPERF_PROGRAM_MPI_TWO_COMMUNICATORS,
       4,
       {},
       {},
       false,
       "two_communicators: 2 repetitions, checksum 20\n"},
      {"hybrid",
       PARPERF_PROGRAM_MPI_HYBRID,
       2,
       {},
       {{"OMP_NUM_THREADS", "2"}},
       false,
       "hybrid: MPI_THREAD_FUNNELED or better, checksum 18\n"},
      {"fortran_use_mpi",
       PARPERF_PROGRAM_MPI_FORTRAN_USE_MPI,
       2,
       {},
       {},
       false,
       "fortran_use_mpi: checksum 622\n"},
      {"fortran_mpi_f08",
       PARPERF_PROGRAM_MPI_FORTRAN_MPI_F08,
       2,
       {},
       {},
       false,
       "fortran_mpi_f08: checksum 622\n"},
      {"pcontrol_phase_4_ranks",
       PARPERF_PROGRAM_MPI_PCONTROL_PHASE,
       4,
       {},
       {},
       false,
       "pcontrol_phase: 4 ranks, unit 100 ms\n"},
      {"relay_chain_4_ranks",
       PARPERF_PROGRAM_MPI_RELAY_CHAIN,
       4,
       {},
       {},
       false,
       "relay_chain: 4 ranks, token 3\n"},
      {"abort_rank", PARPERF_PROGRAM_MPI_ABORT_RANK, 3, {}, {}, true, ""},
      {"crash_rank_segv", PARPERF_PROGRAM_MPI_CRASH_RANK, 3, {"segv"}, {}, true, ""},
      {"crash_rank_kill", PARPERF_PROGRAM_MPI_CRASH_RANK, 3, {"kill"}, {}, true, ""},
  };
  return all;
}

void PrintTo(const Program& program, std::ostream* out) { *out << program.name; }

class MpiProgram : public ::testing::TestWithParam<Program> {};

TEST_P(MpiProgram, RunsUnderPlainMpirun) {
  const auto& program = GetParam();
  std::vector<std::string> command = {program.path};
  command.insert(command.end(), program.arguments.begin(), program.arguments.end());
  ProcessOptions options;
  options.env = program.env;
  options.timeout_seconds = kMpiTimeoutSeconds;
  const auto result = mpi_run(program.ranks, command, options);
  ASSERT_FALSE(result.timed_out) << describe(result);
  if (program.fails) {
    EXPECT_NE(result.exit_code, 0) << "a rank aborts or dies: the job must fail\n" << describe(result);
    EXPECT_LT(result.wall_seconds, 10.0) << "mpirun must end the other ranks soon";
    return;
  }
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.out, program.expected_output) << describe(result);
  // The programs take at most about a second (0.6 s of barriers at 4 ranks); mpirun's start-up and
  // a loaded machine come on top.
  EXPECT_LT(result.wall_seconds, 5.0) << describe(result);
}

INSTANTIATE_TEST_SUITE_P(MpiPrograms, MpiProgram, ::testing::ValuesIn(programs()),
                         [](const ::testing::TestParamInfo<Program>& test) { return test.param.name; });

// The processes whose command line starts with `path`.
std::vector<pid_t> processes_running(const std::string& path) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "cmdline");
    std::string argv0;
    std::getline(in, argv0, '\0');
    if (argv0 == path) found.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return found;
}

// mpirun gives each rank a process group of its own: killing mpirun's group would leave the ranks
// polling forever. The harness must end them all.
TEST(MpiHarness, TimeoutEndsEveryRankOfAHungJob) {
  ProcessOptions options;
  options.timeout_seconds = 3;
  // Rank 0 computes 100 s before it sends; rank 1 waits for it in MPI_Recv.
  const auto result = mpi_run(2, {PARPERF_PROGRAM_MPI_LATE_SENDER, "1", "100000"}, options);
  EXPECT_TRUE(result.timed_out) << describe(result);
  EXPECT_LT(result.wall_seconds, 10.0);
  std::vector<pid_t> left;
  for (int attempt = 0; attempt < 50; ++attempt) {  // SIGKILL is not instantaneous
    left = processes_running(PARPERF_PROGRAM_MPI_LATE_SENDER);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(left.empty()) << left.size() << " rank(s) of the hung job still run, e.g. pid " << left.front();
}

// The ground-truth tests find the line of an MPI call by its marker: /* SITE:<name> */ in C,
// ! SITE:<name> in Fortran, at the end of the call's line. Each marker names one line.
TEST(MpiProgramSources, SiteMarkersNameOneLineEach) {
  for (const char* source :
       {"late_sender.c", "imbalanced_barrier.c", "nonblocking_overlap.c", "two_communicators.c", "hybrid.c",
        "abort_rank.c", "crash_rank.c", "fortran_use_mpi.f90", "fortran_mpi_f08.f90", "relay_chain.c",
        "waitall_exchange.c"}) {
    const auto lines = source_markers(std::filesystem::path(MPI_PROGRAMS_SOURCE_DIR) / source);
    EXPECT_FALSE(lines.empty()) << source << " marks no call";
  }
}

}  // namespace
}  // namespace parperf::test
