// Symbolization of the sites the collectors found at code addresses (OpenMP constructs, instrumented
// functions): module + address become function, file, line and, where the construct's end was seen,
// its last line. An instrumented function's site becomes the function: its name is the symbolized
// (demangled) name, its file and line where the function begins.
#pragma once

#include "analysis/run_data.hpp"
#include "analysis/site_table.hpp"

namespace parperf::analysis {

// The file, line, end_line and function of every site of `run` that has a module and address. A
// module that cannot be read (moved, stripped, not built with -g) adds one warning to the table's;
// its sites keep their kind's name and get the function or the address as their identity, so
// distinct constructs stay distinct.
SiteTable resolve_code_sites(const RunData& run);

}  // namespace parperf::analysis
