// The text report's options the report tests ask for: the full protocol of every interval after the
// overview, as `parperf report --details` prints it.
#pragma once

#include "report/text_protocol.hpp"

namespace parperf::test {

inline report::TextOptions with_details() {
  report::TextOptions options;
  options.details = true;
  return options;
}

}  // namespace parperf::test
