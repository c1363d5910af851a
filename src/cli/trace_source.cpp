#include "cli/trace_source.hpp"

namespace parperf::cli {

TraceSource& trace_source() {
  static TraceSource source;
  return source;
}

}  // namespace parperf::cli
