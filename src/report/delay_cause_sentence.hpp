// One root cause of waiting (analysis/trace/delay_costs.hpp) in words, the same in the report's
// "Root causes of waiting" section (text and HTML) and in the delay_cause findings:
// "rank 3's interval "work" at pop_cases.c:33 makes 3 other locations wait 960 ms in all".
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/interval_tree.hpp"

namespace parperf::report {

struct DelayCauseWords {
  std::string location;                                // location_label's
  std::optional<analysis::IntervalIdentity> interval;  // none: code outside every interval
  double delay = 0;                                    // seconds of waiting it caused, in all
  std::uint64_t waiting_locations = 0;                 // how many other locations waited for it
};

std::string delay_cause_sentence(const DelayCauseWords& cause);

}  // namespace parperf::report
