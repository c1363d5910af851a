#include "report/whatif_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/printable_text.hpp"
#include "report/time_format.hpp"

namespace parperf::report {
namespace {

// Differences of equal replayed times come out as -1e-17 s, not as 0 ("-0.000000").
double seconds(double ns) { return std::abs(ns) < 0.5 ? 0.0 : ns * 1e-9; }

std::string network_words(const analysis::NetworkModel& n) {
  const std::string bandwidth = std::isfinite(n.bytes_per_ns)
                                    ? fmt::format("{:.3g} GB/s", n.bytes_per_ns)
                                    : std::string("not measurable (no message of 64 KiB or more)");
  return fmt::format("latency {}, bandwidth {}, fitted on {} messages",
                     format_duration(seconds(n.latency_ns)), bandwidth, n.observations);
}

// The phases' rows (recording switched by parperf_control, MPI_Pcontrol, omp_control_tool).
std::string phase_rows(const analysis::WhatIf& w, bool predicted) {
  if (w.phases.empty()) return {};
  std::string out = fmt::format("  by phase ({} recorded, between switches of recording)\n", w.phases.size());
  out += fmt::format("    {:<7} {:>12} {:>12}", "phase", "measured", "replayed");
  out += predicted ? fmt::format(" {:>12} {:>12}\n", "predicted", "gain") : std::string("\n");
  for (const analysis::WhatIfPhase& p : w.phases) {
    out += fmt::format("    {:<7} {:>12} {:>12}", p.phase, format_seconds(seconds(p.measured_ns)),
                       format_seconds(seconds(p.replayed_ns)));
    out += predicted ? fmt::format(" {:>12} {:>12}\n", format_seconds(seconds(p.predicted_ns)),
                                   format_seconds(seconds(p.gain_ns())))
                     : std::string("\n");
  }
  return out;
}

}  // namespace

std::string whatif_text(const std::string& directory, const analysis::WhatIf& w) {
  std::string out = fmt::format("parperf whatif: {}\n", printable(directory));
  out += fmt::format("  measured time   {}\n", format_seconds(seconds(w.measured_ns)));
  const double off = w.measured_ns > 0 ? (w.replayed_ns - w.measured_ns) / w.measured_ns : 0;
  out += fmt::format("  replayed time   {} without changes ({:+.1f} % of the measured time{})\n",
                     format_seconds(seconds(w.replayed_ns)), 100 * off,
                     w.self_check_passes() ? ": the model reproduces the run" : "");
  if (!w.self_check_passes()) {
    out += fmt::format(
        "  warning: the replay is off by more than {:.0f} %, so the prediction is uncertain by as much:\n",
        100 * analysis::kReplayTolerance);
    for (const std::string& why : w.off_because) out += fmt::format("    - {}\n", printable(why));
  }
  out += fmt::format("  network         {}\n", network_words(w.fitted));
  if (w.changes.empty()) {
    out += "  no change asked (--ideal-network, --network, --balance, --scale): nothing to predict\n";
    return out + phase_rows(w, false);
  }
  out += "  changes         ";
  for (std::size_t i = 0; i < w.changes.size(); ++i) out += (i ? "; " : "") + printable(w.changes[i]);
  out += "\n";
  out += fmt::format("  predicted time  {}\n", format_seconds(seconds(w.predicted_ns)));
  out += fmt::format("  gain            {} ({} of the measured time)\n", format_seconds(seconds(w.gain_ns())),
                     format_percent(w.measured_ns > 0 ? w.gain_ns() / w.measured_ns : 0));
  return out + phase_rows(w, true);
}

nlohmann::ordered_json whatif_json(const analysis::WhatIf& w) {
  nlohmann::ordered_json j{{"measured_time", seconds(w.measured_ns)},
                           {"replayed_time", seconds(w.replayed_ns)},
                           {"predicted_time", seconds(w.predicted_ns)},
                           {"gain", seconds(w.gain_ns())},
                           {"changes", w.changes}};
  j["network"] = {
      {"latency", seconds(w.fitted.latency_ns)},
      {"bandwidth", std::isfinite(w.fitted.bytes_per_ns) ? nlohmann::ordered_json(w.fitted.bytes_per_ns * 1e9)
                                                         : nlohmann::ordered_json()},
      {"messages", w.fitted.observations}};
  j["phases"] = nlohmann::ordered_json::array();
  for (const analysis::WhatIfPhase& p : w.phases)
    j["phases"].push_back({{"phase", p.phase},
                           {"measured_time", seconds(p.measured_ns)},
                           {"replayed_time", seconds(p.replayed_ns)},
                           {"predicted_time", seconds(p.predicted_ns)},
                           {"gain", seconds(p.gain_ns())}});
  j["self_check"] = {{"passes", w.self_check_passes()}, {"off_because", w.off_because}};
  return j;
}

}  // namespace parperf::report
