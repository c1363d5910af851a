// The function filter of `parperf cc|c++|fortran --instrument=functions --filter FILE`, from the
// command's side: reading the file (format/function_filter.hpp), the part of it gcc can apply while
// compiling, and the exclusion list left in the linked module for the runtime
// (format/excluded_functions.hpp). docs/instrumentation.md describes the whole.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "format/function_filter.hpp"

namespace parperf::cli {

struct FunctionFilterFile {
  std::string path;
  std::string text;                       // the rules' patterns are views into it
  std::vector<format::FilterRule> rules;  // in file order
};

// Reads and checks the filter at `path`. Throws std::runtime_error naming the file and line of the
// first rule that does not parse, or the file when it cannot be read.
FunctionFilterFile read_function_filter(const std::filesystem::path& path);

// gcc's -finstrument-functions-exclude-function-list= and -exclude-file-list= options for the rules
// that gcc's substring matching applies exactly (docs/instrumentation.md: an exclusion `*TEXT*`,
// or a file prefix `/dir/*`, that no inclusion follows); empty when there is none. The runtime
// applies every rule anyway: these only spare the excluded functions the hook calls.
std::vector<std::string> gcc_exclusion_options(const FunctionFilterFile& filter);

struct ModuleExclusions {
  std::size_t functions = 0;  // defined functions in the module
  std::size_t excluded = 0;   // of them, excluded by the filter
};

// Decides the filter for every function of the linked executable or library at `module` (its name
// and source file as the report gives them) and adds the excluded ones' addresses to the module as
// the section the runtime reads, with `objcopy` (PARPERF_OBJCOPY names another). Throws
// std::runtime_error when the module cannot be read or objcopy fails.
ModuleExclusions embed_function_exclusions(const std::filesystem::path& module,
                                           const FunctionFilterFile& filter);

}  // namespace parperf::cli
