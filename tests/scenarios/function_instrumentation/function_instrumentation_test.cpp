// Scenario: programs built with `parperf cc|c++|fortran --instrument=functions` (the wrapper, the
// hooks library and the symbolization of function sites are what is tested), run, and reported.
// Expected figures come from the programs' construction (functions.c, functions.cpp,
// functions.f90); the filter files beside them say what must not appear.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/artifacts.hpp"
#include "support/parperf_json.hpp"
#include "support/process.hpp"
#include "support/source_markers.hpp"
#include "support/temp_dir.hpp"

namespace parperf::test {
namespace {

using nlohmann::json;

const std::filesystem::path kSources = PARPERF_FUNCTION_SOURCES;

ProcessResult parperf(const std::vector<std::string>& arguments, ProcessOptions options = {}) {
  std::vector<std::string> argv = {parperf_command().string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  options.timeout_seconds = 180;
  return run_process(argv, options);
}

// Builds `source` with `parperf <driver> --instrument=functions <extra...>`; `compiler` names the
// compiler through PARPERF_CC/PARPERF_CXX/PARPERF_FC when not empty.
std::filesystem::path build(const TempDir& tmp, const std::string& driver, const std::string& source,
                            std::vector<std::string> extra = {},
                            std::pair<std::string, std::string> compiler = {}) {
  const auto program = tmp / (std::filesystem::path(source).stem().string() + "_" + driver);
  std::vector<std::string> arguments = {driver, "--instrument=functions"};
  arguments.insert(arguments.end(), extra.begin(), extra.end());
  for (const std::string& a :
       {std::string("-O1"), (kSources / source).string(), std::string("-o"), program.string()})
    arguments.push_back(a);
  ProcessOptions options;
  if (!compiler.first.empty()) options.env.push_back(compiler);
  const auto compiled = parperf(arguments, options);
  EXPECT_EQ(compiled.exit_code, 0) << "building " << source << " failed: " << describe(compiled);
  return program;
}

// Every interval of kind `function`, depth first, with its parent's name; pointers into `report`,
// which must outlive them.
struct FunctionInterval {
  const json* interval;
  std::string parent;  // the enclosing interval's name
};
void collect_functions(const json& interval, std::vector<FunctionInterval>& out) {
  const auto children = interval.find("children");
  if (children == interval.end() || !children->is_array()) return;
  for (const json& child : *children) {
    if (child.value("kind", "") == "function") out.push_back({&child, interval.value("name", "")});
    collect_functions(child, out);
  }
}
std::vector<FunctionInterval> functions_of(const json& report) {
  std::vector<FunctionInterval> out;
  const auto roots = report.find("intervals");
  if (roots == report.end() || !roots->is_array()) {
    ADD_FAILURE() << "the report has no intervals";
    return out;
  }
  for (const json& root : *roots) collect_functions(root, out);
  return out;
}
std::string names(const std::vector<FunctionInterval>& functions) {
  std::string text;
  for (const auto& f : functions) text += " '" + f.interval->value("name", "") + "' (in " + f.parent + ")";
  return text;
}
const FunctionInterval* named(const std::vector<FunctionInterval>& functions, const std::string& name) {
  for (const auto& f : functions)
    if (f.interval->value("name", "") == name) return &f;
  return nullptr;
}
std::int64_t entries_of(const std::vector<FunctionInterval>& functions, const std::string& name) {
  std::int64_t total = 0;
  for (const auto& f : functions)
    if (f.interval->value("name", "") == name) total += integer(*f.interval, "count");
  return total;
}

// functions.c, built with exclude.filter: what its construction makes certain.
void expect_functions_c(const json& report, const std::string& compiler) {
  const auto functions = functions_of(report);
  SCOPED_TRACE("built with " + compiler + "; function intervals:" + names(functions));
  const FunctionInterval* main_function = named(functions, "main");
  const FunctionInterval* compute = named(functions, "compute");
  const FunctionInterval* helper = named(functions, "helper");
  ASSERT_NE(main_function, nullptr) << "main() is not in the report as a function interval";
  ASSERT_NE(compute, nullptr) << "compute() is not in the report as a function interval";
  ASSERT_NE(helper, nullptr) << "helper() is not in the report as a function interval";
  EXPECT_EQ(main_function->parent, "program");
  EXPECT_EQ(compute->parent, "main");
  EXPECT_EQ(integer(*compute->interval, "count"), 1);
  // compute spins 100 ms of its own (seconds_now and the vDSO clock are not instrumented).
  EXPECT_GE(number(*compute->interval, "execution_time"), 0.095) << "compute() spins for 100 ms";
  EXPECT_LT(number(*compute->interval, "execution_time"), 5.0);
  EXPECT_TRUE(text_of(*compute->interval, "file").ends_with("functions.c")) << compute->interval->dump();
  EXPECT_EQ(integer(*compute->interval, "line"), marker_line(kSources / "functions.c", "compute"))
      << "compute() is reported where it begins in functions.c";
  // helper is called 1000 times, from compute only, also after the longjmp that skipped the exits
  // of four deep() calls: those frames were closed when jump_out() returned.
  EXPECT_EQ(helper->parent, "compute") << "helper() is called from compute() only";
  EXPECT_EQ(entries_of(functions, "helper"), 1000) << "helper() is called 1000 times";
  EXPECT_EQ(entries_of(functions, "deep"), 4) << "deep() is entered 4 times (3, 2, 1, 0) before the longjmp";
  EXPECT_EQ(entries_of(functions, "jump_out"), 1);
  EXPECT_EQ(named(functions, "excluded"), nullptr)
      << "excluded() is excluded by the filter, yet it is reported";
}

class FunctionInstrumentation : public ::testing::Test {
 protected:
  TempDir tmp;
};

// gcc, and the program run on its own: an instrumented program links the runtime and measures
// itself into PARPERF_DIR.
TEST_F(FunctionInstrumentation, GccBuildWithFilterMeasuresItselfAndLeavesOutTheExcludedFunction) {
  const auto program = build(tmp, "cc", "functions.c", {"--filter", (kSources / "exclude.filter").string()},
                             {"PARPERF_CC", "gcc"});
  const auto directory = tmp / "run";
  ProcessOptions options;
  options.env = {{"PARPERF_DIR", directory.string()}, {"PARPERF_QUIET", "1"}};
  const auto run = run_process({program.string()}, options);
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("sum "), std::string::npos) << "the program's own output: " << run.out;
  expect_functions_c(report_json(directory), "gcc");
}

// clang-16 has no compile-time filter: the exclusion list the wrapper leaves in the executable does
// all of it. Run under `parperf run`.
TEST_F(FunctionInstrumentation, ClangBuildWithFilterUnderParperfRun) {
  const auto program = build(tmp, "cc", "functions.c", {"--filter", (kSources / "exclude.filter").string()},
                             {"PARPERF_CC", "clang-16"});
  const auto directory = tmp / "run";
  const auto run = parperf({"run", "-q", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  expect_functions_c(report_json(directory), "clang-16");
}

// functions.cpp, built with std.filter and run under `parperf run`.
void expect_functions_cpp(const TempDir& tmp, const std::string& compiler) {
  const auto program = build(tmp, "c++", "functions.cpp", {"--filter", (kSources / "std.filter").string()},
                             {"PARPERF_CXX", compiler});
  const auto directory = tmp / ("run_" + compiler);
  const auto run = parperf({"run", "-q", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("rejected a negative side"), std::string::npos) << run.out;
  const json report = report_json(directory);
  const auto functions = functions_of(report);
  SCOPED_TRACE("built with " + compiler + "; function intervals:" + names(functions));
  const FunctionInterval* area = named(functions, "shapes::area(double, double)");
  ASSERT_NE(area, nullptr) << "shapes::area is not reported under its demangled name";
  EXPECT_EQ(integer(*area->interval, "count"), 499) << "area() is called for 499 neighbouring pairs";
  EXPECT_TRUE(area->parent.starts_with("shapes::total_area(")) << "area() is called by total_area()";
  const FunctionInterval* total = nullptr;
  for (const auto& f : functions)
    if (f.interval->value("name", "").starts_with("shapes::total_area(")) total = &f;
  ASSERT_NE(total, nullptr);
  EXPECT_EQ(total->parent, "main") << "total_area(), called by main after it caught the exception, is nested "
                                      "under the functions the exception unwound";
  EXPECT_EQ(entries_of(functions, "shapes::check(double)"), 2) << "check() ran for 3.0 and threw for -1.0";
  for (const auto& f : functions) {
    const std::string name = f.interval->value("name", "");
    EXPECT_FALSE(name.starts_with("std::") || name.starts_with("void std::") ||
                 name.starts_with("__gnu_cxx::"))
        << "the filter excludes the standard library, yet '" << name << "' is reported";
    EXPECT_FALSE(text_of(*f.interval, "file").starts_with("/usr/include/"))
        << "the filter excludes /usr/include, yet '" << name << "' from " << text_of(*f.interval, "file")
        << " is reported";
  }
}

// g++ calls the exit hooks of the functions an exception unwinds.
TEST_F(FunctionInstrumentation, CxxStandardLibraryFilteredOutWithGxx) { expect_functions_cpp(tmp, "g++"); }

// clang++ does not: the hooks close those calls when main calls on.
TEST_F(FunctionInstrumentation, CxxStandardLibraryFilteredOutAndExceptionsUnwoundWithClang) {
  expect_functions_cpp(tmp, "clang++-16");
}

TEST_F(FunctionInstrumentation, FortranSubroutinesThroughParperfFortran) {
  // `parperf fortran` instruments functions without being asked to.
  const auto program = tmp / "functions_f90";
  ProcessOptions in_tmp;
  in_tmp.working_directory = tmp.path();  // gfortran writes the module file numbers.mod there
  const auto compiled =
      parperf({"fortran", "-O1", (kSources / "functions.f90").string(), "-o", program.string()}, in_tmp);
  ASSERT_EQ(compiled.exit_code, 0) << describe(compiled);
  const auto directory = tmp / "run";
  const auto run = parperf({"run", "-q", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_NE(run.out.find("total"), std::string::npos) << run.out;
  const json report = report_json(directory);
  const auto functions = functions_of(report);
  SCOPED_TRACE("function intervals:" + names(functions));
  const FunctionInterval* work = named(functions, "work");
  ASSERT_NE(work, nullptr) << "the subroutine work is not reported as a function interval";
  EXPECT_EQ(integer(*work->interval, "count"), 1);
  EXPECT_TRUE(text_of(*work->interval, "file").ends_with("functions.f90"));
  const FunctionInterval* accumulate = named(functions, "numbers::accumulate");
  ASSERT_NE(accumulate, nullptr) << "the module procedure accumulate is not reported as numbers::accumulate";
  EXPECT_EQ(integer(*accumulate->interval, "count"), 200) << "work calls accumulate 200 times";
  EXPECT_EQ(accumulate->parent, "work");
}

// The tiny, often-called helper is proposed for exclusion, the long compute function is not; the
// proposal is a filter file the wrapper reads back.
TEST_F(FunctionInstrumentation, FilterSuggestExcludesTheFrequentTinyHelperOnly) {
  const auto program = build(tmp, "cc", "functions.c", {}, {"PARPERF_CC", "gcc"});
  const auto directory = tmp / "run";
  const auto run = parperf({"run", "-q", "-o", directory.string(), "--", program.string()});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto suggested = tmp / "suggested.filter";
  const auto suggest = parperf({"filter", "suggest", directory.string(), "-o", suggested.string()});
  ASSERT_EQ(suggest.exit_code, 0) << describe(suggest);
  const auto printed = parperf({"filter", "suggest", directory.string()});
  ASSERT_EQ(printed.exit_code, 0) << describe(printed);
  const std::string& text = printed.out;
  EXPECT_NE(text.find("\nexclude function helper\n"), std::string::npos)
      << "helper() (1000 calls of a few ns) is not proposed for exclusion:\n"
      << text;
  EXPECT_NE(text.find("\nexclude function excluded\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("exclude function compute"), std::string::npos)
      << "compute() (one call of 100 ms) is proposed for exclusion:\n"
      << text;
  EXPECT_EQ(text.find("exclude function main"), std::string::npos) << text;
  EXPECT_NE(text.find("1000 calls"), std::string::npos) << "each rule gives its evidence:\n" << text;
  // Read back by the wrapper: the helper then never appears.
  const auto filtered =
      build(tmp, "cc", "functions.c", {"--filter", suggested.string()}, {"PARPERF_CC", "gcc"});
  const auto second = tmp / "run2";
  ASSERT_EQ(parperf({"run", "-q", "-o", second.string(), "--", filtered.string()}).exit_code, 0);
  const json report = report_json(second);
  const auto functions = functions_of(report);
  EXPECT_EQ(named(functions, "helper"), nullptr)
      << "the suggested filter did not exclude helper():" << names(functions);
  EXPECT_NE(named(functions, "compute"), nullptr) << names(functions);
}

TEST_F(FunctionInstrumentation, MalformedFilterIsRefusedWithItsLine) {
  const auto filter = tmp / "bad.filter";
  {
    std::ofstream out(filter);
    out << "# fine\nexclude function helper\nexclude funtion typo\n";
  }
  const auto compiled = parperf({"cc", "--instrument=functions", "--filter", filter.string(),
                                 (kSources / "functions.c").string(), "-o", (tmp / "never").string()});
  EXPECT_NE(compiled.exit_code, 0) << "a filter with a misspelt rule was accepted";
  EXPECT_NE(compiled.err.find("bad.filter:3:"), std::string::npos)
      << "the message does not name the file and line of the bad rule: " << compiled.err;
}

}  // namespace
}  // namespace parperf::test
