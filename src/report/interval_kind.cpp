#include "report/interval_kind.hpp"

#include "parperf/parperf.h"

namespace parperf::report {

std::string_view kind_text(std::uint32_t kind) {
  switch (kind) {
    case PARPERF_KIND_PROGRAM:
      return "program";
    case PARPERF_KIND_USER:
      return "user";
    case PARPERF_KIND_PARALLEL_LOOP:
      return "parallel loop";
    case PARPERF_KIND_SEQUENTIAL_LOOP:
      return "sequential loop";
    default:
      return "unknown";
  }
}

std::string_view kind_key(std::uint32_t kind) {
  switch (kind) {
    case PARPERF_KIND_PROGRAM:
      return "program";
    case PARPERF_KIND_USER:
      return "user";
    case PARPERF_KIND_PARALLEL_LOOP:
      return "parallel_loop";
    case PARPERF_KIND_SEQUENTIAL_LOOP:
      return "sequential_loop";
    default:
      return "unknown";
  }
}

}  // namespace parperf::report
