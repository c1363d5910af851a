// Which OpenMP runtime a program uses, and whether `parperf run` swaps it for LLVM's libomp.
//
// The runtime measures OpenMP through OMPT, which only LLVM's libomp implements. Programs built with
// gcc, g++ or gfortran -fopenmp link GNU libgomp instead. libomp also implements libgomp's ABI (the
// GOMP_* entry points and the omp_* functions, under libgomp's symbol versions), so preloading libomp
// before libgomp makes the dynamic loader bind the program's OpenMP calls to libomp: the program runs
// on libomp, unmodified. The program's ELF dynamic section tells whether it needs libgomp, itself or
// through one of the libraries it links (a Fortran program calling an OpenMP library).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace parperf::cli {

// What the executable (or, one level down, a library it links) names in its DT_NEEDED entries.
enum class OpenMpLinkage {
  kNone,     // an ELF program that links no OpenMP runtime
  kLibgomp,  // libgomp.so.1: GNU's runtime, which OMPT cannot see
  kLibomp,   // libomp.so.5 (or libiomp5): LLVM's or Intel's, OMPT works as it is
  kUnknown,  // not found, not readable, or not an ELF executable of this machine (a script)
};

struct OpenMpDetection {
  OpenMpLinkage linkage = OpenMpLinkage::kUnknown;
  std::filesystem::path program;  // the file that was read; empty when the program was not found
  std::string needed_by;          // the library that links the runtime, empty when the program itself
  std::string reason;             // why the linkage is unknown
};

// The environment the detection reads; the caller passes getenv's values (null when unset).
struct SearchEnvironment {
  const char* path = nullptr;             // PATH, to resolve a program name without '/'
  const char* ld_library_path = nullptr;  // LD_LIBRARY_PATH, to find the libraries the program links
};

// The file execvp(3) would run for `name`: `name` itself when it contains '/', else the first
// executable regular file `name` in the directories of `path` (glibc's default when null).
std::optional<std::filesystem::path> resolve_program(const std::string& name, const char* path);

// The parts of an ELF file's dynamic section that locate the libraries it needs.
struct DynamicSection {
  std::vector<std::string> needed;   // DT_NEEDED, in order
  std::vector<std::string> rpath;    // DT_RPATH, split at ':', $ORIGIN not yet replaced
  std::vector<std::string> runpath;  // DT_RUNPATH, likewise
};

// The dynamic section of an ELF64 file of this machine's byte order; nothing when the file cannot be
// read, is not such an ELF file or has no dynamic section (static executables). Never trusts an
// offset or a length of the file before checking it against the file's size.
std::optional<DynamicSection> read_dynamic_section(const std::filesystem::path& file);

// Which OpenMP runtime `program` (as given on parperf's command line) links.
OpenMpDetection detect_openmp_runtime(const std::string& program, const SearchEnvironment& environment);

enum class OpenMpRuntimeMode {
  kAuto,    // substitute libomp when the program needs libgomp (the default)
  kLibomp,  // always preload libomp
  kNative,  // never preload it
};

// The choice made for one run.
struct OpenMpPlan {
  std::optional<std::filesystem::path> preload;  // libomp, preloaded right after the runtime
  std::string description;                       // for run.json, e.g. "libomp (replacing libgomp)"
  std::string warning;                           // when not empty, printed even with --quiet
};

// $PARPERF_LIBOMP when set and not empty, else the libomp found when parperf was built (empty when
// none was found then).
std::filesystem::path configured_libomp();

// Decides whether to preload `libomp` for a program with this detection. A libomp that is missing
// or cannot be preloaded gives a warning and no preload: the program then runs on its own runtime,
// never fails because of this.
OpenMpPlan plan_openmp_runtime(OpenMpRuntimeMode mode, const OpenMpDetection& detection,
                               const std::filesystem::path& libomp);

// "none", "libgomp", "libomp" or "unknown", as run.json says it.
std::string linkage_name(OpenMpLinkage linkage);

}  // namespace parperf::cli
