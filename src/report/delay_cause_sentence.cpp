#include "report/delay_cause_sentence.hpp"

#include <fmt/format.h>

#include "report/interval_kind.hpp"
#include "report/src_summary.hpp"
#include "report/time_format.hpp"

namespace parperf::report {

std::string delay_cause_sentence(const DelayCauseWords& c) {
  std::string what = "code outside every interval";
  if (c.interval) {
    const analysis::IntervalIdentity& id = *c.interval;
    what = kind_text(id.kind) == "user" ? "interval" : std::string(kind_text(id.kind));
    if (!id.name.empty() && id.name != what) what += " \"" + id.name + "\"";
    if (!id.file.empty()) what += " at " + source_text(id.file, id.line);
  }
  return fmt::format("{}'s {} makes {} other location{} wait {} in all", c.location, what,
                     c.waiting_locations, c.waiting_locations == 1 ? "" : "s", format_duration(c.delay));
}

}  // namespace parperf::report
