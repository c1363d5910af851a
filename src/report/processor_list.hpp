// The processors whose per-processor characteristics a report shows (--procs LIST / --per-proc).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace parperf::report {

struct ProcessorSelection {
  bool all = true;                                            // --per-proc
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // --procs: inclusive [first, last]

  bool includes(std::int64_t processor) const;
};

// "0,2-3" → processors 0, 2 and 3. Throws std::invalid_argument with a message for the user:
// "--procs: '2-x' is not a processor number or a range like 2-5".
ProcessorSelection parse_processor_list(std::string_view list);

}  // namespace parperf::report
