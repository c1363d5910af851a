#include "report/prediction_svg.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "report/svg_document.hpp"

namespace parperf::report {
namespace {

using analysis::scaling::ScalingFit;

constexpr double kWidth = 680, kHeight = 440;
constexpr double kLeft = 64, kRight = 170, kTop = 40, kBottom = 56;  // the legend sits on the right
constexpr int kCurveSteps = 120;

constexpr std::string_view kStyle =
    ".title{font-size:14px;font-weight:bold}.tick{fill:#333;font-size:10px}.label{font-size:11px}"
    ".axis{stroke:#333;stroke-width:1}.grid{stroke:#ddd;stroke-width:0.5}"
    ".ideal{fill:none;stroke:#999;stroke-dasharray:4 3}.amdahl{fill:none;stroke:#1f77b4;stroke-width:1.2}"
    ".gustafson{fill:none;stroke:#2ca02c;stroke-width:1.2}.chosen{fill:none;stroke:#d62728;stroke-width:2}"
    ".band{fill:#d62728;fill-opacity:0.15;stroke:none}.measured{fill:#000}.spread{stroke:#000;stroke-width:1}"
    ".note{fill:#555;font-size:10px}.beyond{fill:#000;fill-opacity:0.05}";

class Axes {
 public:
  Axes(double max_processors, double max_speedup) : max_p_(max_processors), max_s_(max_speedup) {}
  double x(double p) const {
    const double span = std::log2(max_p_);
    return kLeft + (span > 0 ? std::log2(p) / span : 0) * (kWidth - kLeft - kRight);
  }
  double y(double speedup) const {
    return kHeight - kBottom - std::clamp(speedup / max_s_, 0.0, 1.05) * (kHeight - kTop - kBottom);
  }
  double max_p() const { return max_p_; }
  double max_s() const { return max_s_; }

 private:
  double max_p_, max_s_;
};

double tick_step(double range) {
  const double raw = range / 6;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

void draw_axes(SvgDocument& svg, const Axes& axes, std::string_view unit) {
  for (double p = 1; p <= axes.max_p() * 1.0001; p *= 2) {
    svg.line(axes.x(p), kTop, axes.x(p), kHeight - kBottom, "grid");
    svg.text(axes.x(p), kHeight - kBottom + 14, fmt::format("{:g}", p), "tick", TextAnchor::middle);
  }
  const double step = tick_step(axes.max_s());
  for (double s = 0; s <= axes.max_s() * 1.0001; s += step) {
    svg.line(kLeft, axes.y(s), kWidth - kRight, axes.y(s), "grid");
    svg.text(kLeft - 6, axes.y(s) + 3, fmt::format("{:g}", s), "tick", TextAnchor::end);
  }
  svg.line(kLeft, kHeight - kBottom, kWidth - kRight, kHeight - kBottom, "axis");
  svg.line(kLeft, kTop, kLeft, kHeight - kBottom, "axis");
  svg.text((kLeft + kWidth - kRight) / 2, kHeight - 18, fmt::format("{} (log2 scale)", unit), "label",
           TextAnchor::middle);
  svg.text(16, (kTop + kHeight - kBottom) / 2, "speedup T(1) / T(p)", "label", TextAnchor::middle, -90);
}

// A curve of speedups T(1)/T(p), sampled evenly on the log2 axis; it ends where it leaves the plot
// at the top (the ideal line and Gustafson's law soon do) instead of running along the frame.
template <class Time>
std::string curve_points(const Axes& axes, double t1, Time time) {
  std::string points;
  for (int step = 0; step <= kCurveSteps; ++step) {
    const double p = std::exp2(std::log2(axes.max_p()) * step / kCurveSteps);
    const double t = time(p);
    if (!(t > 0)) continue;
    const double speedup = t1 / t;
    points += fmt::format("{:.1f},{:.1f} ", axes.x(p), axes.y(std::min(speedup, axes.max_s())));
    if (speedup > axes.max_s()) break;
  }
  return points;
}

void legend(SvgDocument& svg, double& y, std::string_view css_class, std::string_view text) {
  const double x = kWidth - kRight + 14;
  svg.line(x, y - 4, x + 22, y - 4, css_class);
  svg.text(x + 28, y, text, "label");
  y += 18;
}

}  // namespace

std::string prediction_svg(const analysis::scaling::ScalingStudy& study) {
  SvgDocument svg(kWidth, kHeight, "parperf predict: speedup", kStyle);
  if (study.groups.empty() || study.groups.front().program.predictions.empty()) {
    svg.text(kWidth / 2, kHeight / 2, "no speedup to draw: the runs give no model", "label",
             TextAnchor::middle);
    return std::move(svg).finish();
  }
  const auto& group = study.groups.front();
  const ScalingFit& fit = group.program;
  const double t1 = fit.reference_t1;
  double max_p = fit.predictions.back().processors;
  double max_s = 1;
  for (const auto& row : fit.predictions)
    if (row.time > 0) max_s = std::max(max_s, t1 / row.time);
  for (const auto& point : fit.series.points)
    if (point.min() > 0) max_s = std::max(max_s, t1 / point.min());
  max_s *= 1.1;
  const Axes axes(std::max(2.0, max_p), max_s);
  svg.text(kLeft, 24,
           fmt::format("Speedup of the program over {}", group.unit.empty() ? "processors" : group.unit),
           "title");
  draw_axes(svg, axes, group.unit.empty() ? "processors" : group.unit);
  // Shaded: the counts beyond what the measured ones support (ScalingOptions::extrapolation_limit).
  const analysis::scaling::ScalingPrediction* last_supported = nullptr;
  for (const auto& row : fit.predictions)
    if (!row.unsupported) last_supported = &row;
  if (last_supported && last_supported->processors < max_p) {
    const double x = axes.x(last_supported->processors);
    svg.rect(x, kTop, kWidth - kRight - x, kHeight - kTop - kBottom, "beyond",
             "beyond what the measured counts support");
    svg.text(x + 4, kTop + 12, "extrapolated", "note");
  }

  // The band: the chosen model's low and high times, as a closed shape between the two curves.
  std::string band;
  for (const auto& row : fit.predictions)
    if (row.high > 0) band += fmt::format("{:.1f},{:.1f} ", axes.x(row.processors), axes.y(t1 / row.high));
  for (auto row = fit.predictions.rbegin(); row != fit.predictions.rend(); ++row)
    if (row->low > 0) band += fmt::format("{:.1f},{:.1f} ", axes.x(row->processors), axes.y(t1 / row->low));
  if (!band.empty()) svg.polygon(band, "band", "the band of the chosen model");

  svg.polyline(curve_points(axes, t1, [&](double p) { return t1 / p; }), "ideal", "ideal: speedup p");
  if (fit.amdahl)
    svg.polyline(curve_points(axes, t1, [&](double p) { return fit.amdahl->predict(p); }), "amdahl",
                 fmt::format("Amdahl, f = {:.3f}", fit.amdahl->serial_fraction));
  if (fit.gustafson)
    svg.polyline(curve_points(axes, t1, [&](double p) { return fit.gustafson->predict(p); }), "gustafson",
                 fmt::format("Gustafson, f = {:.3f}", fit.gustafson->serial_fraction));
  svg.polyline(curve_points(axes, t1, [&](double p) { return fit.predict(p); }), "chosen",
               fit.model && fit.recommended == analysis::scaling::Law::pmnf ? "T(p) = " + fit.model->formula()
                                                                            : "the chosen law");
  for (const auto& point : fit.series.points) {
    const double x = axes.x(point.processors);
    if (point.times.size() > 1 && point.min() > 0)
      svg.line(x, axes.y(t1 / point.max()), x, axes.y(t1 / point.min()), "spread");
    if (point.median() > 0)
      svg.circle(x, axes.y(t1 / point.median()), 3.5, "measured",
                 fmt::format("{:g}: {:.3g} s, speedup {:.2f}", point.processors, point.median(),
                             t1 / point.median()));
  }

  double y = kTop + 10;
  legend(svg, y, "chosen", fmt::format("chosen ({})", analysis::scaling::law_name(fit.recommended)));
  legend(svg, y, "amdahl", "Amdahl");
  legend(svg, y, "gustafson", "Gustafson");
  legend(svg, y, "ideal", "ideal");
  svg.circle(kWidth - kRight + 25, y - 4, 3.5, "measured");
  svg.text(kWidth - kRight + 42, y, "measured", "label");
  y += 24;
  if (fit.best_processors)
    svg.text(kWidth - kRight + 14, y, fmt::format("best: {:g}", *fit.best_processors), "note");
  return std::move(svg).finish();
}

}  // namespace parperf::report
