// Names of the files in a run directory, shared by the runtime (writer) and the analysis (reader).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace parperf::format {

inline constexpr const char* kRunInfoFileName = "run.json";
inline constexpr const char* kProfilePrefix = "profile.";
inline constexpr const char* kProfileSuffix = ".ppf";

// run.json's `openmp_runtime` when `parperf run` ran a program built for GNU libgomp on LLVM's
// libomp: written by the command, read by the report, which says so in its header.
inline constexpr const char* kOpenmpRuntimeSubstituted = "libomp (replacing libgomp)";

// "profile.<rank>.ppf". Returns what snprintf returns.
inline int profile_file_name(char* buffer, std::size_t size, std::int64_t rank) {
  return std::snprintf(buffer, size, "%s%lld%s", kProfilePrefix, static_cast<long long>(rank),
                       kProfileSuffix);
}

// `parperf locality`'s results: locality.json (and the pictures) in the run directory, or, for
// an MPI job, in one subdirectory per rank, "locality-rank-<rank>".
inline constexpr const char* kLocalityFileName = "locality.json";
inline constexpr const char* kLocalityRankPrefix = "locality-rank-";

// "parperf-<program>-<YYYYmmdd-HHMMSS>", the default run directory (local time of `when`). Control
// characters of the program's name (ESC, BEL, CR, newline: a name can hold any) become '_': the name
// is printed in messages and listed by ls, where they would act on the terminal.
inline int default_run_directory_name(char* buffer, std::size_t size, const char* program, std::time_t when) {
  std::tm local{};
  localtime_r(&when, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const int length = std::snprintf(buffer, size, "parperf-%s-%s", program, stamp);
  for (char* c = buffer; size > 0 && *c != '\0'; ++c)
    if (static_cast<unsigned char>(*c) < 0x20 || *c == 0x7f) *c = '_';
  return length;
}

}  // namespace parperf::format
