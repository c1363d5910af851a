// The plain-language findings at the top of a report: which synchronization points lose the most
// thread time, why, and what would recover it.
#pragma once

#include <string>
#include <vector>

#include "analysis/characteristics.hpp"
#include "analysis/src_points.hpp"

namespace parperf::report {

// At most a few sentences, worst first; `program` gives the shares' base (its Total time).
std::vector<std::string> summarize_losses(const analysis::Characteristics& program,
                                          const std::vector<analysis::SrcPoint>& points);

// "heat.c:57" or "heat.c (57:63)", "unknown site" when the site has no source location.
std::string source_text(const std::string& file, std::int64_t line, std::int64_t end_line = 0);

// "the implicit barrier of the omp loop at heat.c:57", "the critical section at f.c:12".
std::string src_point_text(const analysis::SrcPoint& point);

}  // namespace parperf::report
