#include "analysis/upc_attribution.hpp"

#include <algorithm>

#include "analysis/seconds.hpp"
#include "format/site_kinds.hpp"

namespace parperf::analysis {

void attribute_upc(IntervalTree& tree) {
  for (MergedInterval& interval : tree.intervals) {
    for (LocationStats& stats : interval.locations) {
      for (const OperationFigures& op : stats.operations) {
        if (!format::is_upc_kind(op.identity.kind)) continue;
        const format::SiteKindInfo* info = format::site_kind_info(op.identity.kind);
        if (!info) continue;  // a later version's kind: not guessed into a class
        TimeBreakdown& b = stats.breakdown;
        if (info->site_class == format::SiteClass::management) {
          b.productive_sys += seconds(op.sum_ns);
          continue;
        }
        const std::uint64_t real_sync = std::min(op.wait_ns, op.sum_ns);
        b.communication_real_sync += seconds(real_sync);
        b.communication_starts += seconds(op.sum_ns - real_sync);
      }
    }
  }
}

}  // namespace parperf::analysis
