#include "export/communication_flows.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace parperf::exports {

CommunicationFlows communication_flows(const analysis::Communication& communication,
                                       const TimelineNames& names) {
  CommunicationFlows out;
  std::vector<Flow>& flows = out.flows;
  for (const analysis::Message& m : communication.messages)
    flows.push_back(Flow{{m.send.rank, m.send.thread, m.send.start_ns},
                         {m.receive.rank, m.receive.thread, m.receive.end_ns},
                         fmt::format("{} → {} (tag {}, {} bytes)", names.site(m.send.rank, m.send.site).name,
                                     names.site(m.receive.rank, m.receive.site).name, m.tag, m.bytes)});
  for (const analysis::CollectiveInstance& c : communication.collectives) {
    if (!c.blocking || c.members.size() < 2)
      continue;  // a non-blocking call's return says nothing of the others
    const auto last = std::max_element(c.members.begin(), c.members.end(),
                                       [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    for (const analysis::CallSide& member : c.members)
      if (&member != &*last)
        flows.push_back(Flow{{last->rank, last->thread, last->start_ns},
                             {member.rank, member.thread, member.end_ns},
                             fmt::format("{} #{}: rank {} arrived last", c.name, c.sequence, last->rank)});
  }
  // A put's data goes from its caller to the target's memory, a get's the other way; the target
  // takes no part in the call, so its end of the arrow is on its main thread, at the call's end
  // (a put) or start (a get).
  for (const analysis::OneSidedTransfer& t : communication.one_sided) {
    if (names.find_rank(t.target) == nullptr) {
      ++out.untraced_targets;
      continue;
    }
    const FlowEndpoint origin_start{t.origin.rank, t.origin.thread, t.origin.start_ns};
    const FlowEndpoint origin_end{t.origin.rank, t.origin.thread, t.origin.end_ns};
    const std::string name =
        fmt::format("{} {} rank {} ({} bytes)", names.site(t.origin.rank, t.origin.site).name,
                    t.put ? "→" : "←", t.target, t.bytes);
    if (t.put)
      flows.push_back(Flow{origin_start, {t.target, 0, t.origin.end_ns}, name});
    else
      flows.push_back(Flow{{t.target, 0, t.origin.start_ns}, origin_end, name});
  }
  return out;
}

void repair_flows(std::vector<Flow>& flows, const analysis::ClockRepair& repair) {
  // A location's flow ends come in nearly the order of their times: its anchors walked, not searched.
  std::vector<analysis::RepairedTimes> times;
  times.reserve(repair.anchors.size());
  for (const auto& anchors : repair.anchors) times.emplace_back(anchors);
  const auto repaired = [&](const FlowEndpoint& end) {
    const auto l = repair.locations.find({end.rank, end.thread});
    return l == repair.locations.end() ? end.time_ns : times[l->second](end.time_ns);
  };
  for (Flow& f : flows) {
    const double length = f.to.time_ns - f.from.time_ns;
    for (FlowEndpoint* end : {&f.from, &f.to}) end->time_ns = repaired(*end);
    // A put's or get's far end is a moment of its caller's call drawn on the other PE's line, not an
    // event of that PE: it moves with its caller.
    if (f.to.time_ns < f.from.time_ns) f.to.time_ns = f.from.time_ns + std::max(0.0, length);
  }
}

}  // namespace parperf::exports
