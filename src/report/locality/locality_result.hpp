// What the renderers of `parperf locality` take: the engine's report plus what the engine does not
// know (function names, who captured the accesses, what was lost on the way). The CLI fills it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/locality/locality_report.hpp"

namespace parperf::report {

// Where a function id of the report comes from. Every field is empty (line 0) when unknown.
struct LocalityFunction {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  std::string module;
};

struct LocalityResult {
  locality::LocalityReport report;
  // Names of the ids in report.functions and report.scatter; ids without an entry are unknown.
  std::map<std::uint32_t, LocalityFunction> functions;
  std::string source;         // who captured: "parperf-mem", "lackey", "text"
  std::string command_line;   // the measured program, may be empty
  std::uint64_t dropped = 0;  // accesses the capturer could not record
  std::vector<std::string> warnings;
};

}  // namespace parperf::report
