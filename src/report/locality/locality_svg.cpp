#include "report/locality/locality_svg.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "report/locality/address_bands.hpp"
#include "report/locality/locality_format.hpp"
#include "report/locality/locality_functions.hpp"
#include "report/svg_document.hpp"

namespace parperf::report {
namespace {

using format::LocalityHistograms;
using format::ScatterPoint;

constexpr std::string_view kCommonStyle =
    ".title{font-size:14px;font-weight:bold}.note{fill:#555;font-size:10px}.tick{fill:#333;font-size:10px}"
    ".axis{stroke:#333;stroke-width:1}.grid{stroke:#ddd;stroke-width:0.5}.frame{fill:none;stroke:#333}";

// Titles longer than this would leave the picture; the whole command line is in the <title>.
constexpr std::size_t kTitleChars = 100;
// Average advance of a character at the 11px default size, to keep labels apart.
constexpr double kCharWidth = 6.2;
constexpr double kSmallCharWidth = 5.7;  // at the 10px of notes

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string clip(std::string_view text, std::size_t width) {
  if (text.size() <= width) return std::string(text);
  return std::string(text.substr(0, width - 3)) + "...";
}

std::string titled(std::string_view what, const format::LocalityResult& result) {
  return result.command_line.empty() ? std::string(what) : fmt::format("{}: {}", what, result.command_line);
}

// A tick step of 1, 2 or 5 times a power of ten giving at most `ticks` intervals over `range`.
double nice_step(double range, double ticks) {
  if (range <= 0) return 1;
  const double raw = range / ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

// "2^exponent" as SVG markup with a raised exponent, then `after` (plain text) back on the baseline:
// a tspan's dy moves every later character, so the text after it needs the opposite shift.
std::string power_markup(std::uint32_t exponent, std::string_view after = {}) {
  std::string markup = fmt::format("2<tspan dy=\"-5\" font-size=\"8\">{}</tspan>", exponent);
  if (!after.empty()) markup += fmt::format("<tspan dy=\"5\">{}</tspan>", xml_escape(after));
  return markup;
}

// Tick labels are round numbers: format_count without its trailing zeros ("20k", not "20.0k").
std::string tick_count(std::uint64_t value) {
  std::string text = format_count(value);
  const std::size_t point = text.find('.');
  if (point == std::string::npos) return text;
  std::size_t digits_end = point + 1;
  while (digits_end < text.size() && text[digits_end] >= '0' && text[digits_end] <= '9') ++digits_end;
  std::size_t keep = digits_end;
  while (keep > point + 1 && text[keep - 1] == '0') --keep;
  if (keep == point + 1) keep = point;
  return text.substr(0, keep) + text.substr(digits_end);
}

// ---- scatter ----

constexpr double kScatterWidth = 900;
constexpr double kScatterHeight = 560;
constexpr double kScatterLeft = 130;  // room for 64-bit hex addresses
constexpr double kScatterRight = 20;
constexpr double kScatterTop = 60;
constexpr double kScatterBottom = 48;
constexpr double kBandGap = 12;     // the break between two bands
constexpr double kBandPadding = 4;  // keeps the extreme points off the band's edges
constexpr double kPointRadius = 1.6;

constexpr std::string_view kScatterStyle =
    ".band0{fill:#f6f6f6}.band1{fill:#eef3f9}.load{fill:#1f77b4;fill-opacity:0.7}"
    ".store{fill:#d62728;fill-opacity:0.7}.label-bg{fill:white;fill-opacity:0.85}";

struct BandLayout {
  double top = 0;
  double bottom = 0;
};

// Bands share the height in proportion to their points, each with at least half an equal share,
// so that a small region (a few stack words) stays readable next to a big array.
std::vector<BandLayout> layout_bands(const std::vector<AddressBand>& bands, std::size_t total, double top,
                                     double bottom) {
  const double count = static_cast<double>(bands.size());
  std::vector<double> weights;
  double weight_sum = 0;
  for (const AddressBand& band : bands) {
    weights.push_back(std::max(share(band.points, total), 0.5 / count));
    weight_sum += weights.back();
  }
  const double available = (bottom - top) - kBandGap * (count - 1);
  std::vector<BandLayout> layout;
  double y = bottom;  // band 0 (lowest addresses) at the bottom
  for (const double weight : weights) {
    const double height = available * weight / weight_sum;
    layout.push_back({y - height, y});
    y -= height + kBandGap;
  }
  return layout;
}

double band_y(const AddressBand& band, const BandLayout& layout, std::uint64_t address) {
  if (band.high == band.low) return (layout.top + layout.bottom) / 2;
  const double fraction = static_cast<double>(address - band.low) / static_cast<double>(band.high - band.low);
  return layout.bottom - kBandPadding - fraction * (layout.bottom - layout.top - 2 * kBandPadding);
}

void draw_band_axis(SvgDocument& svg, const AddressBand& band, const BandLayout& layout, std::size_t index,
                    double left, double right) {
  svg.rect(left, layout.top, right - left, layout.bottom - layout.top, index % 2 == 0 ? "band0" : "band1");
  std::vector<std::uint64_t> ticks = {band.low};
  if (band.high != band.low && layout.bottom - layout.top >= 28) ticks.push_back(band.high);
  if (band.high - band.low >= 2 && layout.bottom - layout.top >= 90)
    ticks.push_back(band.low + (band.high - band.low) / 2);
  for (const std::uint64_t address : ticks) {
    const double y = band_y(band, layout, address);
    svg.line(left - 4, y, left, y, "axis");
    svg.text(left - 6, y + 3.5, format_address(address), "tick", TextAnchor::end);
  }
  svg.line(left, layout.top, left, layout.bottom, "axis");
}

// The band's address range, drawn after the points on a light background so that both stay legible.
void draw_band_label(SvgDocument& svg, const AddressBand& band, const BandLayout& layout, std::size_t index,
                     double left) {
  const std::string label = fmt::format("region {}: {} .. {} (span {})", index + 1, format_address(band.low),
                                        format_address(band.high), format_bytes(band.high - band.low));
  svg.rect(left + 2, layout.top + 2, static_cast<double>(label.size()) * kSmallCharWidth + 4, 12, "label-bg");
  svg.text(left + 4, layout.top + 11, label, "note");
}

// The marks of a cut axis: two short slanted strokes across the axis in the gap between bands.
void draw_break(SvgDocument& svg, double x, double y) {
  svg.line(x - 5, y + 1, x + 5, y - 3, "axis");
  svg.line(x - 5, y + 4, x + 5, y, "axis");
}

void draw_index_axis(SvgDocument& svg, std::uint64_t first, std::uint64_t last, double left, double right,
                     double top, double bottom) {
  const double range = static_cast<double>(last - first);
  const double step = nice_step(range, 8);
  const double start = std::ceil(static_cast<double>(first) / step) * step;
  for (double value = start; value <= static_cast<double>(last) + step * 1e-9; value += step) {
    const double x =
        range == 0 ? (left + right) / 2
                   : left + kBandPadding +
                         (value - static_cast<double>(first)) / range * (right - left - 2 * kBandPadding);
    svg.line(x, top, x, bottom, "grid");
    svg.line(x, bottom, x, bottom + 4, "axis");
    svg.text(x, bottom + 15, tick_count(static_cast<std::uint64_t>(value)), "tick", TextAnchor::middle);
  }
  svg.line(left, bottom, right, bottom, "axis");
}

// ---- reuse histogram ----

constexpr double kReuseWidth = 900;
constexpr double kReuseHeight = 420;
constexpr double kReuseLeft = 64;
constexpr double kReuseRight = 20;
constexpr double kReuseTop = 60;
constexpr double kReuseBottom = 72;
constexpr std::string_view kReuseStyle =
    ".bar{fill:#1f77b4}.cold{fill:#7f7f7f}.beyond{fill:#f3ecdc}.limit{stroke:#b15928;stroke-dasharray:4 3}";

// The top of the y axis: the largest fraction rounded up to a tenth (a hundredth below 10%).
double fraction_axis_top(double largest) {
  if (largest <= 0) return 0.1;
  const double top =
      largest > 0.1 ? std::ceil(largest * 10 - 1e-9) / 10 : std::ceil(largest * 100 - 1e-9) / 100;
  return std::min(1.0, std::max(top, 0.01));
}

// ---- locality square ----

constexpr double kSquareWidth = 640;
constexpr double kSquareHeight = 600;
constexpr double kSquareLeft = 80;
constexpr double kSquareTop = 64;
constexpr double kSquareSide = 440;
constexpr std::size_t kLabelChars = 32;
constexpr std::string_view kSquareStyle =
    ".function{fill:#1f77b4;fill-opacity:0.55;stroke:#1f77b4}.program{fill:#d62728;stroke:#7a1010}"
    ".legend-function{fill:#1f77b4;fill-opacity:0.55;stroke:#1f77b4}.legend-program{fill:#d62728}"
    ".hint{fill:#aaa;font-size:12px;font-style:italic}.label{fill:#222;font-size:11px}";

struct Box {
  double left = 0;
  double top = 0;
  double right = 0;
  double bottom = 0;
  bool overlaps(const Box& other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
};

struct Marker {
  double x = 0;
  double y = 0;
  double radius = 0;
};

// Places labels greedily, in order of importance: the first of a few positions around the point
// that overlaps no label already placed nor any marker (other than its own) and stays in the
// picture; the right-hand one if none does.
class LabelPlacer {
 public:
  explicit LabelPlacer(std::vector<Marker> markers) : markers_(std::move(markers)) {}

  void place(SvgDocument& svg, std::size_t marker, std::string_view text) {
    const Marker& m = markers_[marker];
    const double width = static_cast<double>(text.size()) * kCharWidth;
    const double gap = m.radius + 3;
    struct Candidate {
      double x, y;
      TextAnchor anchor;
    };
    const Candidate candidates[] = {
        {m.x + gap, m.y + 4, TextAnchor::start},  {m.x - gap, m.y + 4, TextAnchor::end},
        {m.x, m.y - gap - 2, TextAnchor::middle}, {m.x, m.y + gap + 10, TextAnchor::middle},
        {m.x + gap, m.y - 8, TextAnchor::start},  {m.x + gap, m.y + 16, TextAnchor::start},
        {m.x - gap, m.y - 8, TextAnchor::end},    {m.x - gap, m.y + 16, TextAnchor::end}};
    const Candidate* chosen = &candidates[0];
    for (const Candidate& c : candidates) {
      const Box box = box_of(c.x, c.y, c.anchor, width);
      if (fits(box, marker)) {
        chosen = &c;
        break;
      }
    }
    placed_.push_back(box_of(chosen->x, chosen->y, chosen->anchor, width));
    svg.text(chosen->x, chosen->y, text, "label", chosen->anchor);
  }

 private:
  static Box box_of(double x, double y, TextAnchor anchor, double width) {
    const double left = anchor == TextAnchor::start ? x
                        : anchor == TextAnchor::end ? x - width
                                                    : x - width / 2;
    return {left, y - 10, left + width, y + 3};
  }

  bool fits(const Box& box, std::size_t own) const {
    if (box.left < 2 || box.right > kSquareWidth - 2 || box.top < kSquareTop - 20 ||
        box.bottom > kSquareTop + kSquareSide + 16)
      return false;
    for (const Box& other : placed_)
      if (box.overlaps(other)) return false;
    for (std::size_t i = 0; i < markers_.size(); ++i) {
      if (i == own) continue;
      const Marker& m = markers_[i];
      if (box.overlaps({m.x - m.radius, m.y - m.radius, m.x + m.radius, m.y + m.radius})) return false;
    }
    return true;
  }

  std::vector<Marker> markers_;
  std::vector<Box> placed_;
};

std::string scores_tooltip(std::string_view name, const format::LocalityScores& s, std::uint64_t all_words) {
  return fmt::format("{}: SL {}, TL {}, {} of word accesses", name, format_score(s.spatial),
                     format_score(s.temporal), format_share(share(s.histograms.word_accesses, all_words)));
}

}  // namespace

std::string scatter_svg(const format::LocalityResult& result) {
  const std::vector<ScatterPoint>& points = result.report.scatter;
  const std::string title = titled("Memory accesses over time", result);
  SvgDocument svg(kScatterWidth, kScatterHeight, title, fmt::format("{}{}", kCommonStyle, kScatterStyle));
  const double left = kScatterLeft;
  const double right = kScatterWidth - kScatterRight;
  const double top = kScatterTop;
  const double bottom = kScatterHeight - kScatterBottom;
  svg.text(left, 20, clip(title, kTitleChars), "title");

  std::size_t loads = 0;
  for (const ScatterPoint& p : points) loads += p.store ? 0 : 1;
  const std::size_t stores = points.size() - loads;
  svg.text(left, 36,
           fmt::format("a uniform sample of {} accesses{}", format_exact_count(points.size()),
                       result.source.empty() ? "" : fmt::format(", captured by {}", result.source)),
           "note");
  // The legend, at the top right: colour swatches (rectangles, so that circles are only points).
  svg.rect(right - 170, 27, 10, 10, "load");
  svg.text(right - 156, 36, fmt::format("load ({})", format_count(loads)));
  svg.rect(right - 80, 27, 10, 10, "store");
  svg.text(right - 66, 36, fmt::format("store ({})", format_count(stores)));
  svg.text(16, (top + bottom) / 2, "address", "tick", TextAnchor::middle, -90);
  svg.text((left + right) / 2, kScatterHeight - 10, "access index", "tick", TextAnchor::middle);

  if (points.empty()) {
    svg.rect(left, top, right - left, bottom - top, "frame");
    svg.text((left + right) / 2, (top + bottom) / 2, "no access was sampled", "note", TextAnchor::middle);
    return std::move(svg).finish();
  }

  std::vector<std::uint64_t> addresses;
  addresses.reserve(points.size());
  for (const ScatterPoint& p : points) addresses.push_back(p.address);
  const std::vector<AddressBand> bands = address_bands(addresses);
  const std::vector<BandLayout> layout = layout_bands(bands, points.size(), top, bottom);
  for (std::size_t b = 0; b < bands.size(); ++b) {
    draw_band_axis(svg, bands[b], layout[b], b, left, right);
    if (b > 0) draw_break(svg, left, layout[b].bottom + kBandGap / 2);
  }

  // The time axis starts at the first access of the run, not at the first one sampled.
  const std::uint64_t first = 0;
  std::uint64_t last = 0;
  for (const ScatterPoint& p : points) last = std::max(last, p.access_index);
  draw_index_axis(svg, first, last, left, right, top, bottom);

  const double range = static_cast<double>(last - first);
  const auto x_of = [&](std::uint64_t index) {
    if (range == 0) return (left + right) / 2;
    return left + kBandPadding +
           static_cast<double>(index - first) / range * (right - left - 2 * kBandPadding);
  };
  // Loads first, stores over them: stores are usually fewer and would otherwise be hidden.
  for (const bool store : {false, true}) {
    svg.begin_group(store ? "store" : "load");
    for (const ScatterPoint& p : points) {
      if (p.store != store) continue;
      const std::size_t b = band_of(bands, p.address);
      svg.circle(x_of(p.access_index), band_y(bands[b], layout[b], p.address), kPointRadius);
    }
    svg.end_group();
  }
  if (bands.size() > 1)
    for (std::size_t b = 0; b < bands.size(); ++b) draw_band_label(svg, bands[b], layout[b], b, left);
  return std::move(svg).finish();
}

std::string reuse_histogram_svg(const format::LocalityResult& result) {
  const LocalityHistograms& h = result.report.program.histograms;
  const std::uint32_t log2_n = std::min<std::uint32_t>(result.report.options.log2_n, 64);
  const std::string title = titled("Reuse distances of the program", result);
  SvgDocument svg(kReuseWidth, kReuseHeight, title, fmt::format("{}{}", kCommonStyle, kReuseStyle));
  const double left = kReuseLeft;
  const double right = kReuseWidth - kReuseRight;
  const double top = kReuseTop;
  const double bottom = kReuseHeight - kReuseBottom;
  svg.text(left, 20, clip(title, kTitleChars), "title");
  svg.text_markup(
      left, 36,
      fmt::format("temporal locality TL = {} with N = {}", format_score(result.report.program.temporal),
                  power_markup(log2_n, fmt::format("; cold (first) accesses {}; {} word accesses",
                                                   format_share(share(h.cold, h.word_accesses)),
                                                   format_exact_count(h.word_accesses)))),
      "note", TextAnchor::start);

  // Bins up to N always (so that pictures of different runs line up), further when counts are there.
  std::size_t last = log2_n;
  for (std::size_t b = 0; b < h.reuse.size(); ++b)
    if (h.reuse[b] != 0) last = std::max(last, b);
  const std::size_t bars = last + 2;  // + cold
  const double slot = (right - left) / static_cast<double>(bars);
  const double bar_width = slot * 0.8;

  double largest = share(h.cold, h.word_accesses);
  for (std::size_t b = 0; b <= last; ++b) largest = std::max(largest, share(h.reuse[b], h.word_accesses));
  const double axis_top = fraction_axis_top(largest);
  const auto y_of = [&](double fraction) { return bottom - fraction / axis_top * (bottom - top); };

  // Distances beyond N count as no reuse in TL: their bins are drawn on a shaded background.
  if (last > log2_n) {
    const double x = left + slot * (log2_n + 1);
    svg.rect(x, top, slot * static_cast<double>(last - log2_n), bottom - top, "beyond");
    svg.text(x + 4, top + 12, "beyond N: no reuse in TL", "note");
  }
  const double tick_step = axis_top / 5;
  for (int i = 0; i <= 5; ++i) {
    const double fraction = tick_step * i;
    const double y = y_of(fraction);
    svg.line(left, y, right, y, "grid");
    svg.text(left - 6, y + 3.5, fmt::format("{:g}%", std::round(fraction * 1000) / 10), "tick",
             TextAnchor::end);
  }

  // One label every few bars, so that labels stay about 22 px apart.
  const std::size_t label_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(22 / slot)));
  const auto draw_bar = [&](std::size_t slot_index, std::uint64_t count, std::string_view css_class,
                            const std::string& tooltip) {
    const double fraction = share(count, h.word_accesses);
    const double x = left + slot * static_cast<double>(slot_index) + (slot - bar_width) / 2;
    svg.rect(x, y_of(fraction), bar_width, bottom - y_of(fraction), css_class, tooltip);
    if (fraction >= 0.005 && slot >= 26)
      svg.text(x + bar_width / 2, y_of(fraction) - 3, format_share(fraction), "note", TextAnchor::middle);
  };
  for (std::size_t b = 0; b <= last; ++b) {
    const format::DistanceRange range = format::reuse_bin_range(b);
    draw_bar(b, h.reuse[b], "bar",
             fmt::format("reuse distance {}..{}: {} word accesses ({})", range.min, range.max,
                         format_exact_count(h.reuse[b]), format_share(share(h.reuse[b], h.word_accesses))));
    if (b % label_every == 0)
      svg.text_markup(left + slot * (static_cast<double>(b) + 0.5), bottom + 16,
                      b == 0 ? std::string("0-1") : power_markup(static_cast<std::uint32_t>(b)), "tick",
                      TextAnchor::middle);
  }
  draw_bar(last + 1, h.cold, "cold",
           fmt::format("cold (first) accesses: {} word accesses ({})", format_exact_count(h.cold),
                       format_share(share(h.cold, h.word_accesses))));
  svg.text(left + slot * (static_cast<double>(last) + 1.5), bottom + 16, "cold", "tick", TextAnchor::middle);

  if (log2_n <= last) {  // the N limit, at the right edge of bin log2_n
    const double x = left + slot * (log2_n + 1);
    svg.line(x, top - 6, x, bottom, "limit");
    svg.text_markup(x, top - 9, fmt::format("N = {}", power_markup(log2_n)), "note", TextAnchor::middle);
  }
  svg.line(left, bottom, right, bottom, "axis");
  svg.line(left, top, left, bottom, "axis");
  svg.text((left + right) / 2, kReuseHeight - 30,
           "reuse distance d: distinct words touched between two accesses to a word", "tick",
           TextAnchor::middle);
  svg.text((left + right) / 2, kReuseHeight - 14,
           "bar 2^k: distances d with 2^(k-1) < d \u2264 2^k (bar 0-1: d = 0 or 1)", "note",
           TextAnchor::middle);
  svg.text(16, (top + bottom) / 2, "share of word accesses", "tick", TextAnchor::middle, -90);
  return std::move(svg).finish();
}

std::string locality_square_svg(const format::LocalityResult& result, std::size_t max_functions) {
  const format::LocalityReport& report = result.report;
  const std::string title = titled("Locality of the functions", result);
  SvgDocument svg(kSquareWidth, kSquareHeight, title, fmt::format("{}{}", kCommonStyle, kSquareStyle));
  const double left = kSquareLeft;
  const double top = kSquareTop;
  const double side = kSquareSide;
  const auto x_of = [&](double sl) { return left + std::clamp(sl, 0.0, 1.0) * side; };
  const auto y_of = [&](double tl) { return top + (1 - std::clamp(tl, 0.0, 1.0)) * side; };

  std::vector<std::uint32_t> ids = format::functions_by_accesses(report);
  const std::size_t total = ids.size();
  if (ids.size() > max_functions) ids.resize(max_functions);
  svg.text(20, 22, clip(title, 80), "title");
  svg.text(
      20, 40,
      fmt::format("x: spatial locality (SL), y: temporal locality (TL); {} of {} functions, area by share "
                  "of word accesses",
                  ids.size(), total),
      "note");

  // The frame, the quarter grid and where good and poor locality lie.
  for (int i = 1; i < 4; ++i) {
    const double q = i / 4.0;
    svg.line(x_of(q), top, x_of(q), top + side, "grid");
    svg.line(left, y_of(q), left + side, y_of(q), "grid");
  }
  svg.rect(left, top, side, side, "frame");
  svg.text(left + side - 8, top + 18, "good locality", "hint", TextAnchor::end);
  svg.text(left + 8, top + side - 8, "poor locality", "hint", TextAnchor::start);
  for (int i = 0; i <= 4; ++i) {
    const double q = i / 4.0;
    const std::string label = fmt::format("{:g}", q);
    svg.line(x_of(q), top + side, x_of(q), top + side + 4, "axis");
    svg.text(x_of(q), top + side + 16, label, "tick", TextAnchor::middle);
    svg.line(left - 4, y_of(q), left, y_of(q), "axis");
    svg.text(left - 7, y_of(q) + 3.5, label, "tick", TextAnchor::end);
  }
  svg.text(left + side / 2, top + side + 36, "spatial locality (SL)", "tick", TextAnchor::middle);
  svg.text(left - 40, top + side / 2, "temporal locality (TL)", "tick", TextAnchor::middle, -90);

  // The markers: the program first (its label is placed first), then the functions, busiest first,
  // so that small circles are drawn over big ones.
  const std::uint64_t all_words = report.program.histograms.word_accesses;
  std::vector<Marker> markers = {{x_of(report.program.spatial), y_of(report.program.temporal), 7}};
  for (const std::uint32_t id : ids) {
    const format::LocalityScores& s = report.functions.at(id);
    // Radius 3 for a negligible function up to 12 for all of the accesses: area tracks the share.
    const double radius = 3 + 9 * std::sqrt(share(s.histograms.word_accesses, all_words));
    markers.push_back({x_of(s.spatial), y_of(s.temporal), radius});
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::uint32_t id = ids[i];
    const std::string location = function_location(result, id);
    const std::string name =
        function_label(result, id) + (location.empty() ? "" : fmt::format(" ({})", location));
    const Marker& m = markers[i + 1];
    svg.circle(m.x, m.y, m.radius, "function", scores_tooltip(name, report.functions.at(id), all_words));
  }
  const Marker& p = markers[0];
  svg.polygon(fmt::format("{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}", p.x, p.y - p.radius,
                          p.x + p.radius, p.y, p.x, p.y + p.radius, p.x - p.radius, p.y),
              "program", scores_tooltip("program", report.program, all_words));

  LabelPlacer labels(markers);
  labels.place(svg, 0, "program");
  for (std::size_t i = 0; i < ids.size(); ++i)
    labels.place(svg, i + 1, clip(function_label(result, ids[i]), kLabelChars));

  // The legend, under the axis title.
  const double legend_y = top + side + 62;
  svg.circle(left + 6, legend_y - 4, 5, "legend-function");
  svg.text(left + 16, legend_y, "function (area: share of word accesses)");
  svg.polygon(fmt::format("{0:.2f},{1:.2f} {2:.2f},{3:.2f} {0:.2f},{4:.2f} {5:.2f},{3:.2f}", left + 286,
                          legend_y - 10, left + 292, legend_y - 4, legend_y + 2, left + 280),
              "legend-program");
  svg.text(left + 298, legend_y, "program");
  return std::move(svg).finish();
}

}  // namespace parperf::report
