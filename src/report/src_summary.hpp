// The run's main findings (analysis/findings.hpp) in plain language, at the top of a report: which
// synchronization and communication points lose the most processor time, why, and what would
// recover it. MPI call sites are told in
// the terms of their communication pattern: "rank 1 waits 0.200 s in MPI_Recv at late_sender.c:25
// for a late sender (rank 0)", "ranks arrive at the MPI_Barrier at x.c:40 up to 0.150 s apart: load
// imbalance before it (synchronization 0.300 s)".
#pragma once

#include <string>
#include <vector>

#include "analysis/findings.hpp"
#include "analysis/src_points.hpp"

namespace parperf::report {

// One of the run's main findings as a sentence that names its numbers: the words of the text
// report's summary and of the JSON's `findings[].text` (docs/diagnosis.md).
std::string main_finding_text(const analysis::Finding& finding);

// One sentence per finding, in their order.
std::vector<std::string> main_findings_text(const std::vector<analysis::Finding>& findings);

// "heat.c:57" or "heat.c (57:63)", "unknown site" when the site has no source location.
std::string source_text(const std::string& file, std::int64_t line, std::int64_t end_line = 0);

// "the implicit barrier of the omp loop at heat.c:57", "the critical section at f.c:12",
// "MPI_Recv at late_sender.c:25".
std::string src_point_text(const analysis::SrcPoint& point);

}  // namespace parperf::report
