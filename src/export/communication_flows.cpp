#include "export/communication_flows.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace parperf::exports {

std::vector<Flow> communication_flows(const analysis::Communication& communication,
                                      const TimelineNames& names) {
  std::vector<Flow> flows;
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
  return flows;
}

}  // namespace parperf::exports
