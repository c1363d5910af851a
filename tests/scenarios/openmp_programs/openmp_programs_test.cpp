// Smoke test of the OpenMP test programs (this folder; each source states its ground truth): every
// program, in its clang build (LLVM libomp) and its gcc or gfortran build (GNU libgomp), runs under
// `parperf run`, exits 0 and prints what it prints alone: measuring must not change results; and
// its profile, written at a normal exit, holds no interval left open and no warning of one. The
// libgomp builds must run on libomp under parperf (OMPT exists only there): run.json says so, and
// the programs themselves report which library their OpenMP calls reach.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "support/parperf_json.hpp"
#include "support/parperf_run.hpp"
#include "support/process.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

struct Program {
  std::string name;  // for the test's name
  std::string path;
  std::vector<std::string> arguments;  // small counts: every run stays well under a second
  bool libgomp;                        // built by gcc or gfortran
  bool reports_runtime;                // honours OMP_PROGRAMS_REPORT_RUNTIME (the C programs)
  std::string expected_output;
};

const std::vector<Program>& programs() {
  static const std::vector<Program> all = [] {
    const std::string sync_output =
        "critical: 40 entries\nlock: 40 entries\nordered: 1234567\nsingle: 1\nsections: 80 ms\n"
        "nowait: 8 iterations\nnested: 4 inner threads, ids 10\ntasks: 36\n";
    std::vector<Program> list;
    for (const bool gcc : {false, true}) {
      const std::string build = gcc ? "gcc" : "clang";
      const auto path = [gcc](const char* clang_build, const char* gcc_build) {
        return std::string(gcc ? gcc_build : clang_build);
      };
      list.push_back({"triangular_loop_static_" + build,
                      path(PARPERF_PROGRAM_TRIANGULAR_LOOP_CLANG, PARPERF_PROGRAM_TRIANGULAR_LOOP_GCC),
                      {"2", "static"},
                      gcc,
                      true,
                      "triangular_loop static: checksum 2992\n"});
      list.push_back({"triangular_loop_dynamic_" + build,
                      path(PARPERF_PROGRAM_TRIANGULAR_LOOP_CLANG, PARPERF_PROGRAM_TRIANGULAR_LOOP_GCC),
                      {"2", "dynamic"},
                      gcc,
                      true,
                      "triangular_loop dynamic: checksum 2992\n"});
      list.push_back({"serial_section_" + build,
                      path(PARPERF_PROGRAM_SERIAL_SECTION_CLANG, PARPERF_PROGRAM_SERIAL_SECTION_GCC),
                      {"1"},
                      gcc,
                      true,
                      "serial_section: checksum 106\n"});
      list.push_back({"sync_constructs_" + build,
                      path(PARPERF_PROGRAM_SYNC_CONSTRUCTS_CLANG, PARPERF_PROGRAM_SYNC_CONSTRUCTS_GCC),
                      {},
                      gcc,
                      true,
                      sync_output});
      list.push_back({"tiny_regions_" + build,
                      path(PARPERF_PROGRAM_TINY_REGIONS_CLANG, PARPERF_PROGRAM_TINY_REGIONS_GCC),
                      {"100"},
                      gcc,
                      true,
                      "tiny_regions: 100\n"});
    }
    list.push_back({"omp_fortran_gfortran",
                    PARPERF_PROGRAM_OMP_FORTRAN_GFORTRAN,
                    {},
                    true,
                    false,
                    "omp_fortran: checksum 204 entries 10\n"});
    return list;
  }();
  return all;
}

void PrintTo(const Program& program, std::ostream* out) { *out << program.name; }

std::vector<std::string> command_of(const Program& program) {
  std::vector<std::string> command = {program.path};
  command.insert(command.end(), program.arguments.begin(), program.arguments.end());
  return command;
}

// The values of the "name: value" lines the programs print on stderr when asked which runtime
// they run on (runtime_report.h).
std::map<std::string, std::string> reported_runtime(const std::string& err) {
  std::map<std::string, std::string> found;
  for (const auto& line : lines_of(err)) {
    for (const std::string key : {"openmp runtime", "gomp entry points"}) {
      if (line.starts_with(key + ": ")) found[key] = line.substr(key.size() + 2);
    }
  }
  return found;
}

bool is_libomp(const std::string& library) { return library.find("libomp.so") != std::string::npos; }
bool is_libgomp(const std::string& library) { return library.find("libgomp.so") != std::string::npos; }

class OpenMpProgram : public ::testing::TestWithParam<Program> {};

TEST_P(OpenMpProgram, MeasuredRunPrintsWhatThePlainRunPrints) {
  const auto& program = GetParam();
  ProcessOptions report_runtime;
  report_runtime.env = {{"OMP_PROGRAMS_REPORT_RUNTIME", "1"}};

  const auto plain = run_process(command_of(program), report_runtime);
  ASSERT_EQ(plain.exit_code, 0) << describe(plain);
  EXPECT_EQ(plain.out, program.expected_output) << "the program's own result, without parperf";

  TempDir tmp;
  const auto measured = measure(tmp / "run", command_of(program), report_runtime);
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);
  EXPECT_EQ(measured.out, plain.out) << "measuring must not change the program's results";
  EXPECT_LT(measured.wall_seconds, 5.0) << "a smoke run; the programs take well under a second";

  EXPECT_EQ(measured.err.find("still open"), std::string::npos)
      << "every construct ends where the program ends it: " << measured.err;
  // A program that exits normally has ended every interval: the threads still parked in the OpenMP
  // runtime's pool when the profile is written at exit (libomp stops them later, in its library
  // destructor) end their `program` interval there.
  const auto report = report_json(tmp / "run");
  const std::function<void(const nlohmann::json&)> expect_closed = [&](const nlohmann::json& interval) {
    EXPECT_FALSE(interval.value("open", true))
        << "interval " << interval.value("name", "?") << " at line " << interval.value("line", 0)
        << " is reported open although the program exited normally";
    for (const auto& child : interval["children"]) expect_closed(child);
  };
  for (const auto& interval : report["intervals"]) expect_closed(interval);

  const auto info = read_json_file(tmp / "run" / "run.json");
  EXPECT_EQ(info["openmp_runtime"], program.libgomp ? "libomp (replacing libgomp)" : "libomp")
      << "parperf run must put libgomp programs on libomp, and leave libomp programs alone";

  if (!program.reports_runtime) return;
  auto alone = reported_runtime(plain.err);
  auto under_parperf = reported_runtime(measured.err);
  if (program.libgomp) {
    EXPECT_TRUE(is_libgomp(alone["openmp runtime"])) << "gcc's build alone runs on libgomp: " << plain.err;
    EXPECT_TRUE(is_libomp(under_parperf["openmp runtime"]))
        << "under parperf the omp_* calls must reach libomp: " << measured.err;
    EXPECT_TRUE(is_libomp(under_parperf["gomp entry points"]))
        << "under parperf gcc's GOMP_* calls must reach libomp: " << measured.err;
  } else {
    EXPECT_TRUE(is_libomp(alone["openmp runtime"])) << plain.err;
    EXPECT_TRUE(is_libomp(under_parperf["openmp runtime"])) << measured.err;
  }
}

INSTANTIATE_TEST_SUITE_P(OpenMpPrograms, OpenMpProgram, ::testing::ValuesIn(programs()),
                         [](const ::testing::TestParamInfo<Program>& test) { return test.param.name; });

// The programs mark their constructs with /* SITE:<name> */ (C) or ! SITE:<name> (Fortran) so tests
// can find the line a construct is reported at by reading the source; each marker names one line.
TEST(OpenMpProgramSources, SiteMarkersNameOneLineEach) {
  for (const char* source :
       {"triangular_loop.c", "serial_section.c", "sync_constructs.c", "tiny_regions.c", "omp_fortran.f90"}) {
    const auto lines = source_markers(std::filesystem::path(OPENMP_PROGRAMS_SOURCE_DIR) / source);
    EXPECT_FALSE(lines.empty()) << source << " marks no construct";
  }
}

}  // namespace
}  // namespace parperf::test
