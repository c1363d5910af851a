// Hand-built evidence for the diagnosis rules (analysis/findings.hpp), shared by the analysis tests of
// the rules and the report tests of their words.
#pragma once

#include <cstdint>

#include "analysis/characteristics.hpp"
#include "analysis/src_points.hpp"
#include "format/records.hpp"

namespace parperf::test {

// A program of 4 threads, one process, with `total` seconds of Total time.
inline analysis::Characteristics four_thread_program(double total) {
  analysis::Characteristics program;
  program.processors = 4;
  program.threads = 4;
  program.total_time = total;
  return program;
}

// The implicit barrier of an OpenMP loop at bt.f90:`line` in a 4-thread region: `lost` seconds waited
// there, the threads' work before it `max_over_mean` apart, and `on_cpu` of the region's 4 × 1 s (one
// entry per thread) on a CPU.
inline analysis::SrcPoint loop_barrier(std::int64_t line, double lost, double max_over_mean, double on_cpu) {
  using format::SiteKind;
  analysis::SrcPoint p;
  p.identity = {static_cast<std::uint32_t>(SiteKind::omp_implicit_barrier),
                "implicit barrier",
                "bt.f90",
                line,
                "",
                static_cast<std::uint32_t>(SiteKind::omp_loop)};
  p.interval = {static_cast<std::uint32_t>(SiteKind::omp_loop), "loop", "bt.f90", line};
  p.count = 400;
  p.sync = lost;
  p.imbalance = max_over_mean;
  p.locations = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  p.enclosing_wall = 4.0;
  p.enclosing_cpu = 4.0 * on_cpu;
  p.enclosing_entries = 4;
  return p;
}

}  // namespace parperf::test
