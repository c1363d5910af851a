#include "analysis/mpi_calls.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/seconds.hpp"

namespace parperf::analysis {
namespace {

void add(MpiCallFigures& row, const OperationFigures& op, MpiClass cls) {
  row.count += op.count;
  row.time += seconds(op.sum_ns);
  if (cls != MpiClass::management) {
    const std::uint64_t real_sync = std::min(op.wait_ns, op.sum_ns);
    row.real_sync += seconds(real_sync);
    row.starts += seconds(op.sum_ns - real_sync);
  }
  row.synchronization += op.synchronization;
  row.time_variation += op.time_variation;
  row.overlap += seconds(op.overlap_ns);
  row.bytes += op.bytes;
  if (op.partner_min != format::kNoPartner)
    row.partner_min =
        row.partner_min == format::kNoPartner ? op.partner_min : std::min(row.partner_min, op.partner_min);
  row.partner_max = std::max(row.partner_max, op.partner_max);
  row.partner_set |= op.partner_set;
  // The latest of the threads' and intervals' last calls.
  if ((op.last_begin_ns != 0 || op.last_end_ns != 0) && (!row.last_end || op.last_end > *row.last_end)) {
    row.last_begin = op.last_begin;
    row.last_end = op.last_end;
  }
}

}  // namespace

std::vector<MpiCallFigures> mpi_calls(const IntervalTree& tree, std::size_t interval) {
  std::map<std::pair<std::int64_t, OperationIdentity>, MpiCallFigures> rows;
  std::vector<std::size_t> pending = {interval};
  while (!pending.empty()) {
    const MergedInterval& current = tree.intervals.at(pending.back());
    pending.pop_back();
    pending.insert(pending.end(), current.children.begin(), current.children.end());
    for (const LocationStats& stats : current.locations) {
      for (const OperationFigures& op : stats.operations) {
        const std::optional<MpiClass> cls = mpi_class(op.identity.kind);
        if (!cls) continue;
        auto [it, inserted] = rows.try_emplace(std::pair(stats.location.rank, op.identity));
        if (inserted) {
          it->second.identity = op.identity;
          it->second.mpi_class = *cls;
          it->second.rank = stats.location.rank;
        }
        add(it->second, op, *cls);
      }
    }
  }
  std::vector<MpiCallFigures> calls;
  calls.reserve(rows.size());
  for (auto& [key, row] : rows) calls.push_back(std::move(row));
  return calls;
}

std::vector<CommunicationClassFigures> communication_classes(const std::vector<MpiCallFigures>& calls) {
  std::vector<CommunicationClassFigures> table;
  for (MpiClass cls : kCommunicationClasses) {
    CommunicationClassFigures row;
    row.mpi_class = cls;
    bool any = false;
    for (const MpiCallFigures& call : calls) {
      if (call.mpi_class != cls) continue;
      any = true;
      row.count += call.count;
      row.time += call.time;
      row.real_sync += call.real_sync;
      row.starts += call.starts;
      row.synchronization += call.synchronization;
      row.time_variation += call.time_variation;
      row.overlap += call.overlap;
      row.bytes += call.bytes;
    }
    if (any) table.push_back(row);
  }
  return table;
}

}  // namespace parperf::analysis
