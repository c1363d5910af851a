// `parperf run` substitutes LLVM's libomp for GNU libgomp, the runtime OMPT cannot see, when the
// program needs libgomp: itself or through a library it links. The programs read here are built
// from cli_openmp_runtime_fixture.c, one per way of linking (tests/unit/CMakeLists.txt).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "cli/openmp_runtime.hpp"
#include "cli/preload.hpp"
#include "support/temp_dir.hpp"

namespace parperf::cli {
namespace {

using parperf::test::TempDir;

constexpr OpenMpLinkage kCompilersRuntime =
    PARPERF_FIXTURE_OPENMP_IS_LIBGOMP ? OpenMpLinkage::kLibgomp : OpenMpLinkage::kLibomp;

std::string name_of(OpenMpLinkage linkage) { return linkage_name(linkage); }

OpenMpDetection detect(const std::string& program, const char* ld_library_path = nullptr) {
  return detect_openmp_runtime(program, {.path = "/usr/bin:/bin", .ld_library_path = ld_library_path});
}

void write_executable(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary) << text;
  chmod(file.c_str(), 0755);
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(OpenMpRuntimeDetection, ProgramBuiltWithGccOpenMpNeedsLibgomp) {
  const auto detection = detect(CLI_OPENMP_FIXTURE_GOMP);
  EXPECT_EQ(name_of(detection.linkage), name_of(kCompilersRuntime))
      << "gcc -fopenmp links libgomp.so.1 (" << detection.reason << ")";
  EXPECT_EQ(detection.needed_by, "") << "the program itself needs it";
  EXPECT_EQ(detection.program, CLI_OPENMP_FIXTURE_GOMP);
}

TEST(OpenMpRuntimeDetection, PlainProgramNeedsNoOpenMpRuntime) {
  const auto detection = detect(CLI_OPENMP_FIXTURE_PLAIN);
  EXPECT_EQ(name_of(detection.linkage), "none") << detection.reason;
}

TEST(OpenMpRuntimeDetection, ProgramLinkedAgainstLibompNeedsNoSubstitution) {
  if (!PARPERF_LIBOMP_FOUND) GTEST_SKIP() << "no libomp on this machine";
#ifdef CLI_OPENMP_FIXTURE_LIBOMP
  EXPECT_EQ(name_of(detect(CLI_OPENMP_FIXTURE_LIBOMP).linkage), "libomp");
#endif
}

TEST(OpenMpRuntimeDetection, LibraryThatUsesOpenMpIsFoundThroughAbsoluteRunpath) {
  const auto detection = detect(CLI_OPENMP_FIXTURE_USES_LIBRARY);
  EXPECT_EQ(name_of(detection.linkage), name_of(kCompilersRuntime))
      << "the program links " << PARPERF_FIXTURE_LIBRARY_NAME << ", which links the OpenMP runtime";
  EXPECT_EQ(detection.needed_by, PARPERF_FIXTURE_LIBRARY_NAME);
}

TEST(OpenMpRuntimeDetection, LibraryThatUsesOpenMpIsFoundThroughOriginRunpath) {
  const auto section = read_dynamic_section(CLI_OPENMP_FIXTURE_USES_LIBRARY_ORIGIN);
  ASSERT_TRUE(section);
  const auto& paths = section->runpath.empty() ? section->rpath : section->runpath;
  // A sanitizer build adds its runtime's folder to every binary's RUNPATH (cmake/sanitizers.cmake).
  EXPECT_TRUE(
      std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return p.starts_with("$ORIGIN"); }))
      << "the RUNPATH names no $ORIGIN: " << (paths.empty() ? std::string("(empty)") : paths.front());

  const auto detection = detect(CLI_OPENMP_FIXTURE_USES_LIBRARY_ORIGIN);
  EXPECT_EQ(name_of(detection.linkage), name_of(kCompilersRuntime));
  EXPECT_EQ(detection.needed_by, PARPERF_FIXTURE_LIBRARY_NAME);
}

TEST(OpenMpRuntimeDetection, LibraryThatUsesOpenMpIsFoundThroughLdLibraryPath) {
  const std::filesystem::path library = CLI_OPENMP_FIXTURE_LIBRARY;
  EXPECT_EQ(name_of(detect(CLI_OPENMP_FIXTURE_USES_LIBRARY_NO_RPATH).linkage), "none")
      << "without a run path or LD_LIBRARY_PATH, the library is not found, so it is not read";
  const std::string search = "/nonexistent::" + library.parent_path().string();
  const auto detection = detect(CLI_OPENMP_FIXTURE_USES_LIBRARY_NO_RPATH, search.c_str());
  EXPECT_EQ(name_of(detection.linkage), name_of(kCompilersRuntime)) << "LD_LIBRARY_PATH=" << search;
  EXPECT_EQ(detection.needed_by, PARPERF_FIXTURE_LIBRARY_NAME);
}

TEST(OpenMpRuntimeDetection, ShellScriptIsUnknown) {
  TempDir tmp;
  write_executable(tmp / "run.sh", "#!/bin/sh\nexec ./omp_program \"$@\"\n");
  const auto detection = detect((tmp / "run.sh").string());
  EXPECT_EQ(name_of(detection.linkage), "unknown");
  EXPECT_EQ(detection.program, tmp / "run.sh");
  EXPECT_NE(detection.reason, "");
}

TEST(OpenMpRuntimeDetection, MissingProgramIsUnknown) {
  const auto by_path = detect("/nonexistent/parperf/program");
  EXPECT_EQ(name_of(by_path.linkage), "unknown");
  const auto by_name = detect("parperf-no-such-program-anywhere");
  EXPECT_EQ(name_of(by_name.linkage), "unknown");
  EXPECT_EQ(by_name.program, "") << "not in PATH";
  EXPECT_EQ(name_of(detect("").linkage), "unknown");
}

TEST(OpenMpRuntimeDetection, DirectoryIsUnknown) {
  TempDir tmp;
  EXPECT_EQ(name_of(detect(tmp.path().string()).linkage), "unknown");
}

TEST(OpenMpRuntimeDetection, ProgramNameIsResolvedThroughPathLikeExecvp) {
  const std::filesystem::path program = CLI_OPENMP_FIXTURE_GOMP;
  TempDir tmp;
  write_executable(tmp / program.filename(), "#!/bin/sh\n");  // earlier in PATH, but a script
  const std::string path = "/nonexistent:" + tmp.path().string() + ":" + program.parent_path().string();
  EXPECT_EQ(resolve_program(program.filename(), path.c_str()), tmp / program.filename());

  const std::string later_only = "/nonexistent:" + program.parent_path().string();
  EXPECT_EQ(resolve_program(program.filename(), later_only.c_str()),
            program.parent_path() / program.filename());
  const auto detection =
      detect_openmp_runtime(program.filename(), {.path = later_only.c_str(), .ld_library_path = nullptr});
  EXPECT_EQ(name_of(detection.linkage), name_of(kCompilersRuntime));
  EXPECT_EQ(resolve_program("sh", nullptr), std::filesystem::path("/bin/sh")) << "glibc's default PATH";
}

// Damaged files never crash the reader: every prefix of a real program, and a program whose bytes
// are flipped one region at a time, read as "no dynamic section" or as some section.
TEST(OpenMpRuntimeDetection, TruncatedAndDamagedFilesAreReadSafely) {
  const auto bytes = read_file(CLI_OPENMP_FIXTURE_GOMP);
  ASSERT_GT(bytes.size(), 4096u);
  TempDir tmp;
  const auto file = tmp / "damaged";
  for (std::size_t size : {0, 1, 4, 16, 63, 64, 65, 200, 1000, 4000}) {
    write_executable(file, bytes.substr(0, size));
    if (size < 64) {
      EXPECT_FALSE(read_dynamic_section(file)) << "shorter than an ELF header: " << size;
    }
    EXPECT_NO_THROW(detect(file.string())) << size;
  }
  for (std::size_t at = 0; at < 4096; at += 8) {
    auto damaged = bytes;
    for (std::size_t i = at; i < at + 8; ++i) damaged[i] = static_cast<char>(~damaged[i]);
    write_executable(file, damaged);
    EXPECT_NO_THROW(read_dynamic_section(file)) << at;
  }
}

TEST(OpenMpRuntimeDetection, DynamicSectionListsNeededLibrariesInOrder) {
  const auto section = read_dynamic_section(CLI_OPENMP_FIXTURE_USES_LIBRARY);
  ASSERT_TRUE(section);
  const auto& needed = section->needed;
  const auto library = std::find(needed.begin(), needed.end(), PARPERF_FIXTURE_LIBRARY_NAME);
  const auto libc = std::find(needed.begin(), needed.end(), "libc.so.6");
  ASSERT_NE(library, needed.end()) << "the fixture library the program links";
  ASSERT_NE(libc, needed.end());
  EXPECT_LT(library, libc) << "the linker puts libc last (sanitizer builds add their libraries)";
  EXPECT_FALSE(section->runpath.empty() && section->rpath.empty()) << "CMake's build-tree run path";
}

OpenMpDetection linked(OpenMpLinkage linkage) {
  OpenMpDetection detection;
  detection.linkage = linkage;
  return detection;
}

// An existing file to stand in for libomp: the plan only checks that it can be read.
std::filesystem::path some_libomp() { return CLI_OPENMP_FIXTURE_LIBRARY; }

TEST(OpenMpRuntimePlan, AutoReplacesLibgompByLibomp) {
  const auto plan =
      plan_openmp_runtime(OpenMpRuntimeMode::kAuto, linked(OpenMpLinkage::kLibgomp), some_libomp());
  ASSERT_TRUE(plan.preload);
  EXPECT_EQ(*plan.preload, some_libomp());
  EXPECT_EQ(plan.description, "libomp (replacing libgomp)");
  EXPECT_EQ(plan.warning, "");
}

TEST(OpenMpRuntimePlan, AutoLeavesOtherProgramsAlone) {
  for (const auto linkage : {OpenMpLinkage::kNone, OpenMpLinkage::kLibomp, OpenMpLinkage::kUnknown}) {
    const auto plan = plan_openmp_runtime(OpenMpRuntimeMode::kAuto, linked(linkage), some_libomp());
    EXPECT_FALSE(plan.preload) << name_of(linkage);
    EXPECT_EQ(plan.description, name_of(linkage));
    EXPECT_EQ(plan.warning, "");
  }
}

TEST(OpenMpRuntimePlan, LibompModeAlwaysPreloads) {
  const auto plan =
      plan_openmp_runtime(OpenMpRuntimeMode::kLibomp, linked(OpenMpLinkage::kUnknown), some_libomp());
  ASSERT_TRUE(plan.preload) << "a script that starts an OpenMP program";
  EXPECT_EQ(plan.description, "libomp (preloaded)");
  EXPECT_EQ(plan_openmp_runtime(OpenMpRuntimeMode::kLibomp, linked(OpenMpLinkage::kLibgomp), some_libomp())
                .description,
            "libomp (replacing libgomp)");
}

TEST(OpenMpRuntimePlan, NativeModeNeverPreloads) {
  const auto plan =
      plan_openmp_runtime(OpenMpRuntimeMode::kNative, linked(OpenMpLinkage::kLibgomp), some_libomp());
  EXPECT_FALSE(plan.preload);
  EXPECT_EQ(plan.description, "libgomp");
  EXPECT_EQ(plan.warning, "");
}

TEST(OpenMpRuntimePlan, MissingLibompWarnsAndRunsOnLibgomp) {
  const std::filesystem::path missing = "/nonexistent/libomp.so.5";
  const auto plan = plan_openmp_runtime(OpenMpRuntimeMode::kAuto, linked(OpenMpLinkage::kLibgomp), missing);
  EXPECT_FALSE(plan.preload);
  EXPECT_EQ(plan.description, "libgomp (libomp not found)");
  EXPECT_NE(plan.warning.find(missing.string()), std::string::npos) << plan.warning;
  EXPECT_NE(plan.warning.find("PARPERF_LIBOMP"), std::string::npos) << plan.warning;
  EXPECT_NE(plan.warning.find("runs on libgomp"), std::string::npos) << plan.warning;

  const auto unconfigured =
      plan_openmp_runtime(OpenMpRuntimeMode::kAuto, linked(OpenMpLinkage::kLibgomp), "");
  EXPECT_FALSE(unconfigured.preload);
  EXPECT_NE(unconfigured.warning.find("PARPERF_LIBOMP"), std::string::npos) << unconfigured.warning;
}

TEST(OpenMpRuntimePlan, LibompWhosePathCannotBePreloadedIsRefused) {
  TempDir tmp;
  const auto odd = tmp / "lib omp.so";
  write_executable(odd, "");
  const auto plan = plan_openmp_runtime(OpenMpRuntimeMode::kAuto, linked(OpenMpLinkage::kLibgomp), odd);
  EXPECT_FALSE(plan.preload);
  EXPECT_NE(plan.warning.find("space"), std::string::npos) << plan.warning;
}

TEST(OpenMpRuntimePlan, ParperfLibompOverridesTheBuildsLibomp) {
  setenv("PARPERF_LIBOMP", "/opt/llvm/lib/libomp.so.5", 1);
  EXPECT_EQ(configured_libomp(), std::filesystem::path("/opt/llvm/lib/libomp.so.5"));
  setenv("PARPERF_LIBOMP", "", 1);
  const auto built = configured_libomp();
  unsetenv("PARPERF_LIBOMP");
  EXPECT_EQ(configured_libomp(), built) << "an empty PARPERF_LIBOMP counts as unset";
  if (PARPERF_LIBOMP_FOUND) {
    EXPECT_TRUE(std::filesystem::exists(built)) << built;
  }
}

TEST(OpenMpRuntimePreload, RuntimeFirstThenLibompThenWhatTheUserPreloads) {
  const char* parent[] = {"HOME=/home/u", "LD_PRELOAD=/usr/lib/libuser.so", nullptr};
  const auto environment =
      child_environment(parent, {"/p/lib/libparperf.so", "/llvm/lib/libomp.so.5"}, {{"PARPERF_DIR", "/r"}});
  const std::vector<std::string> expected = {"HOME=/home/u",
                                             "LD_PRELOAD=/p/lib/libparperf.so:/llvm/lib/libomp.so.5:"
                                             "/usr/lib/libuser.so",
                                             "PARPERF_DIR=/r"};
  EXPECT_EQ(environment, expected);
}

}  // namespace
}  // namespace parperf::cli
