// The symbolizer on real programs: analysis_symbolizer_fixture.cpp built with clang and gcc, -O0 and
// -O2 -fopenmp, PIE and not, stripped, with a separate debug file (analysis_symbolizer.cmake). Each
// build wrote the module-relative return addresses of its marked call sites to <build>.sites, as the
// runtime's OpenMP collector records codeptr_ra; the comments `LINE:<marker>` in the source give the
// lines those sites must map to.
#include <gtest/gtest.h>

#include <unistd.h>
#include <iterator>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "analysis/symbolizer.hpp"
#include "support/unblocked_fifo.hpp"

namespace parperf::analysis {
namespace {

namespace fs = std::filesystem;

const fs::path fixture_dir = PARPERF_SYMBOLIZER_FIXTURE_DIR;
const fs::path fixture_source = PARPERF_SYMBOLIZER_FIXTURE_SOURCE;

// Marker → the line whose comment is `LINE:<marker>`.
std::map<std::string, std::int64_t> marker_lines() {
  std::map<std::string, std::int64_t> lines;
  std::ifstream in(fixture_source);
  std::string text;
  for (std::int64_t number = 1; std::getline(in, text); ++number) {
    auto at = text.find("/* LINE:");
    if (at == std::string::npos) continue;
    std::istringstream marker(text.substr(at + 8));
    std::string name;
    marker >> name;
    lines[name] = number;
  }
  return lines;
}

// Marker → address, as the build wrote them.
std::map<std::string, std::uint64_t> sites(const std::string& build) {
  std::map<std::string, std::uint64_t> addresses;
  std::ifstream in(fixture_dir / (build + ".sites"));
  std::string marker, hex;
  while (in >> marker >> hex) addresses[marker] = std::stoull(hex, nullptr, 16);
  return addresses;
}

struct Expectation {
  std::string function;
  std::string line_marker;
  std::string why;
};

// What each site must map to, in every build that has it.
const std::map<std::string, Expectation> expectations = {
    {"compute_call", {"fixture::compute(int)", "compute_call", "a call in a C++ function, demangled"}},
    {"cold_call",
     {"fixture::compute(int)", "cold_call", "a call gcc moved to compute(int).cold: still compute"}},
    {"main_call", {"main", "main_call", "a call in main"}},
    {"parallel_body",
     {"main", "parallel_body", "inside `omp parallel`: code outlined by the compiler, named after main"}},
    {"for_body", {"main", "for_body", "inside `omp parallel for`: outlined code, named after main"}},
    {"ompt_parallel_begin",
     {"main", "parallel_construct", "OMPT's codeptr_ra of the parallel region: the runtime call in main"}},
    {"ompt_parallel_for_begin",
     {"main", "for_construct", "OMPT's codeptr_ra of the parallel loop's region: the call in main"}},
    {"ompt_loop_begin",
     {"main", "for_construct", "OMPT's codeptr_ra of the loop: the runtime call in the outlined code"}},
};

class analysis_symbolizer : public testing::Test {
 protected:
  // No network look-ups of debug information for the stripped builds.
  static void SetUpTestSuite() { ::unsetenv("DEBUGINFOD_URLS"); }

  // Every site of `build` (a copy of `sites_of` when given) maps to its function, the fixture's file
  // and the marked line.
  void expect_sites_located(const std::string& build, std::size_t expected_sites, std::string sites_of = "") {
    const auto lines = marker_lines();
    const auto addresses = sites(sites_of.empty() ? build : sites_of);
    ASSERT_EQ(addresses.size(), expected_sites) << build << ".sites: the fixture did not record every site";
    const std::string module = (fixture_dir / build).string();
    for (const auto& [marker, address] : addresses) {
      std::ostringstream where;
      where << build << ", site " << marker << " at 0x" << std::hex << address;
      SCOPED_TRACE(where.str());
      const Expectation& expected = expectations.at(marker);
      SourceLocation location = symbolizer_.locate_return_address(module, address);
      EXPECT_EQ(location.function, expected.function) << expected.why;
      EXPECT_EQ(location.line, lines.at(expected.line_marker)) << expected.why;
      EXPECT_EQ(fs::path(location.file).filename(), fixture_source.filename());
      EXPECT_TRUE(fs::path(location.file).is_absolute()) << location.file;
    }
    EXPECT_EQ(symbolizer_.problem(module), "");
  }

  Symbolizer symbolizer_;
};

// clang 16 writes no .debug_aranges, so all clang builds also test the search through the units.
TEST_F(analysis_symbolizer, ClangUnoptimizedPie) { expect_sites_located("clang-O0", 5); }
TEST_F(analysis_symbolizer, ClangUnoptimizedNotPie) { expect_sites_located("clang-O0-nopie", 5); }
TEST_F(analysis_symbolizer, ClangOptimizedOpenMp) { expect_sites_located("clang-O2-openmp", 8); }
TEST_F(analysis_symbolizer, GccOptimizedOpenMpNotPie) { expect_sites_located("gcc-O2-openmp", 5); }
TEST_F(analysis_symbolizer, GccSeparateDebugFileFoundThroughDebuglink) {
  expect_sites_located("gcc-O2-openmp-debuglink", 5, "gcc-O2-openmp");
}

TEST_F(analysis_symbolizer, WithoutDebugInformationFunctionsComeFromTheSymbolTable) {
  const std::string module = (fixture_dir / "clang-O2-openmp-symtab").string();
  const auto addresses = sites("clang-O2-openmp");
  SourceLocation compute = symbolizer_.locate_return_address(module, addresses.at("compute_call"));
  EXPECT_EQ(compute.function, "fixture::compute(int)");
  EXPECT_EQ(compute.file, "");
  EXPECT_EQ(compute.line, 0);
  EXPECT_EQ(symbolizer_.locate_return_address(module, addresses.at("main_call")).function, "main");
  // Outlined code has only its compiler-made name here: nothing links it to main.
  EXPECT_EQ(symbolizer_.locate_return_address(module, addresses.at("parallel_body")).line, 0);
  EXPECT_EQ(symbolizer_.problem(module), module + ": no debug information (compile with -g)");
}

// gcc's outlined and split-off code keeps the source function's name in its symbol.
TEST_F(analysis_symbolizer, WithoutDebugInformationGccSymbolsNameTheSourceFunction) {
  const std::string module = (fixture_dir / "gcc-O2-openmp-symtab").string();
  const auto addresses = sites("gcc-O2-openmp");
  const std::map<std::string, std::string> functions = {{"compute_call", "fixture::compute(int)"},
                                                        {"cold_call", "fixture::compute(int)"},
                                                        {"main_call", "main"},
                                                        {"parallel_body", "main"},
                                                        {"for_body", "main"}};
  for (const auto& [marker, function] : functions) {
    SourceLocation location = symbolizer_.locate_return_address(module, addresses.at(marker));
    EXPECT_EQ(location.function, function) << marker << ": " << expectations.at(marker).why;
    EXPECT_EQ(location.line, 0) << marker;
  }
}

TEST_F(analysis_symbolizer, FullyStrippedProgramGivesNoLocationAndNamesTheProblem) {
  const std::string module = (fixture_dir / "clang-O0-stripped").string();
  for (const auto& [marker, address] : sites("clang-O0")) {
    SourceLocation location = symbolizer_.locate_return_address(module, address);
    EXPECT_EQ(location.file, "") << marker;
    EXPECT_EQ(location.line, 0) << marker;
  }
  EXPECT_EQ(symbolizer_.problem(module), module + ": no debug information (compile with -g)");
}

TEST_F(analysis_symbolizer, MissingModuleIsNamedInTheProblem) {
  const std::string module = (fixture_dir / "no-such-program").string();
  SourceLocation location = symbolizer_.locate(module, 0x1000);
  EXPECT_EQ(location.function, "");
  EXPECT_EQ(location.line, 0);
  EXPECT_EQ(symbolizer_.problem(module), module + ": no such file");
}

TEST_F(analysis_symbolizer, TextFileIsNotAnElfFile) {
  const std::string module = fixture_source.string();
  SourceLocation location = symbolizer_.locate(module, 0x10);
  EXPECT_EQ(location.function, "");
  EXPECT_EQ(symbolizer_.problem(module), module + ": not an ELF file");
}

// A profile can name any path as a module: a FIFO there blocked `parperf report` in open().
TEST_F(analysis_symbolizer, FifoNamedAsAModuleIsRefusedWithoutWaiting) {
  const test::UnblockedFifo fifo(fs::temp_directory_path() /
                                 ("parperf-symbolizer-fifo-" + std::to_string(::getpid())));
  const std::string module = fifo.path().string();
  SourceLocation location = symbolizer_.locate(module, 0x10);
  EXPECT_EQ(location.function, "");
  EXPECT_EQ(symbolizer_.problem(module), module + ": not a regular file (a FIFO)");
}

// Cut anywhere, a program must not crash the symbolizer: what is left gives what it can.
TEST_F(analysis_symbolizer, TruncatedProgramDoesNotCrash) {
  const fs::path program = fixture_dir / "clang-O0";
  const fs::path dir = fs::temp_directory_path() / ("parperf-symbolizer-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ifstream in(program, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto addresses = sites("clang-O0");
  for (std::size_t size : {std::size_t{4}, std::size_t{64}, std::size_t{1000}, bytes.size() / 3,
                           bytes.size() / 2, bytes.size() - 100}) {
    const fs::path cut = dir / ("clang-O0-" + std::to_string(size));
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, size);
    for (const auto& [marker, address] : addresses) {
      EXPECT_EQ(symbolizer_.locate_return_address(cut.string(), address).line, 0) << cut << ", " << marker;
    }
    // The section headers are at the end: every cut loses at least the debug information.
    EXPECT_TRUE(symbolizer_.problem(cut.string()).starts_with(cut.string() + ": ")) << cut;
  }
  fs::remove_all(dir);
}

TEST_F(analysis_symbolizer, ModuleNeverAskedForHasNoProblem) {
  EXPECT_EQ(symbolizer_.problem("/nowhere"), "");
}

TEST_F(analysis_symbolizer, AddressesOutsideTheProgramAreUnknown) {
  const std::string module = (fixture_dir / "clang-O0").string();
  for (std::uint64_t address :
       {std::uint64_t{0}, std::uint64_t{0x10}, std::uint64_t{0x7fff'ffff'0000}, ~std::uint64_t{0}}) {
    SourceLocation location = symbolizer_.locate(module, address);
    EXPECT_EQ(location.function, "") << std::hex << address;
    EXPECT_EQ(location.line, 0) << std::hex << address;
  }
  EXPECT_EQ(symbolizer_.locate_return_address(module, 0).line, 0);
  EXPECT_EQ(symbolizer_.problem(module), "") << "a bad address is no problem of the module";
}

TEST_F(analysis_symbolizer, ReturnAddressIsLookedUpAtTheCall) {
  const std::string module = (fixture_dir / "clang-O2-openmp").string();
  std::uint64_t address = sites("clang-O2-openmp").at("main_call");
  SourceLocation at_call = symbolizer_.locate(module, address - 1);
  SourceLocation returned = symbolizer_.locate_return_address(module, address);
  EXPECT_EQ(returned.function, at_call.function);
  EXPECT_EQ(returned.file, at_call.file);
  EXPECT_EQ(returned.line, at_call.line);
}

TEST_F(analysis_symbolizer, RepeatedAndMovedLookupsGiveTheSameAnswer) {
  const std::string module = (fixture_dir / "gcc-O2-openmp").string();
  std::uint64_t address = sites("gcc-O2-openmp").at("for_body");
  SourceLocation first = symbolizer_.locate_return_address(module, address);
  SourceLocation again = symbolizer_.locate_return_address(module, address);
  EXPECT_EQ(again.function, first.function);
  EXPECT_EQ(again.line, first.line);
  Symbolizer moved = std::move(symbolizer_);
  SourceLocation after_move = moved.locate_return_address(module, address);
  EXPECT_EQ(after_move.function, "main");
  EXPECT_EQ(after_move.line, first.line);
}

}  // namespace
}  // namespace parperf::analysis
