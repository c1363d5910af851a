#include "report/traffic_report.hpp"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "report/table_rows.hpp"

namespace parperf::report {

void render_traffic(std::back_insert_iterator<std::string> out, const analysis::OneSidedTraffic& traffic,
                    std::size_t max_rows) {
  if (traffic.cells.empty() && traffic.lost_origins.empty()) return;
  fmt::format_to(out, "\n--- one-sided traffic (who wrote and read whose memory; {} processes) ---\n",
                 traffic.processes);
  fmt::format_to(out, "  {:>6}  {:>6}  {:<6}  {:>12}  {:>16}\n", "origin", "target", "op", "calls", "bytes");
  const std::size_t shown = std::min(traffic.cells.size(), max_rows);
  for (const analysis::TrafficCell& c : std::span(traffic.cells).first(shown))
    fmt::format_to(out, "  {:>6}  {:>6}  {:<6}  {:>12}  {:>16}\n", c.origin, c.target,
                   analysis::operation_key(c.operation), c.calls, c.bytes);
  render_more_rows(out, traffic.cells.size() - shown, "(origin, target, operation) cell");
  for (const std::int64_t origin : traffic.lost_origins)
    fmt::format_to(out, "  process {}: its row is unknown (its collector had no memory for the matrix)\n",
                   origin);
}

nlohmann::ordered_json traffic_json(const analysis::OneSidedTraffic& traffic) {
  if (traffic.cells.empty() && traffic.lost_origins.empty()) return nullptr;
  nlohmann::ordered_json cells = nlohmann::ordered_json::array();
  for (const analysis::TrafficCell& c : traffic.cells)
    cells.push_back({{"origin", c.origin},
                     {"target", c.target},
                     {"operation", analysis::operation_key(c.operation)},
                     {"calls", c.calls},
                     {"bytes", c.bytes}});
  return {
      {"processes", traffic.processes}, {"cells", std::move(cells)}, {"lost_origins", traffic.lost_origins}};
}

}  // namespace parperf::report
