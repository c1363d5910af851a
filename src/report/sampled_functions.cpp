#include "report/sampled_functions.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "analysis/sampled_frames.hpp"
#include "report/printable_text.hpp"
#include "report/sampled_cause_text.hpp"

namespace parperf::report {
namespace {

std::string interval_label(const analysis::IntervalSamples& interval) {
  const analysis::IntervalIdentity& id = interval.identity;
  std::string label = id.name.empty() ? std::string("interval") : id.name;
  if (id.value != 0) label += fmt::format(" = {}", id.value);
  if (!id.file.empty() && id.line > 0)
    label += fmt::format(" ({}:{})", std::filesystem::path(id.file).filename().string(), id.line);
  return printable(label);
}

std::string where(const analysis::SampledFunction& f) {
  if (f.file.empty()) return "";
  return printable(fmt::format("{}:{}", std::filesystem::path(f.file).filename().string(), f.line));
}

// What sent the samples, in words.
std::string source_words(const analysis::SampleProfile& samples) {
  if (samples.source == "perf_event") return "the kernel's perf-event CPU clock";
  if (samples.source == "both") return "the perf-event CPU clock, POSIX timers on some threads";
  return samples.wall_clock ? "POSIX timers" : "POSIX timers, at the scheduler tick";
}

// A share with its uncertainty: "75.9% ±4.4" (half the 95 % interval, in points).
std::string share_text(const analysis::ShareInterval& s) {
  return fmt::format("{:>5.1f}% ±{:<4.1f}", 100 * s.share, 100 * s.half_width());
}

nlohmann::ordered_json interval_json(const analysis::ShareInterval& s) { return {s.low, s.high}; }

double percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

// The frames of a call path, each printable (names come from the program and its symbols).
std::string joined(const std::vector<std::string>& frames, const char* separator) {
  std::string text;
  for (const std::string& frame : frames) {
    if (!text.empty()) text += separator;
    text += printable(frame);
  }
  return text;
}

}  // namespace

std::vector<const analysis::SampledFunction*> shown_functions(const analysis::IntervalSamples& interval,
                                                              std::size_t top) {
  std::vector<const analysis::SampledFunction*> shown;
  const std::vector<analysis::SampledFunction>& all = interval.functions;
  std::vector<const analysis::SampledFunction*> by_inclusive;
  for (const analysis::SampledFunction& f : all) by_inclusive.push_back(&f);
  std::stable_sort(by_inclusive.begin(), by_inclusive.end(),
                   [](const auto* a, const auto* b) { return a->inclusive > b->inclusive; });
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool top_self = top == 0 || i < top;
    const auto rank = std::find(by_inclusive.begin(), by_inclusive.end(), &all[i]) - by_inclusive.begin();
    if (top_self || static_cast<std::size_t>(rank) < top) shown.push_back(&all[i]);
  }
  return shown;
}

std::string sampled_functions_text(const analysis::SampleProfile& samples, std::size_t top,
                                   const std::vector<analysis::Finding>& findings) {
  if (!samples.sampled)
    return "Functions: the run was not sampled (record it with `parperf run --sample`).\n";
  std::string out =
      fmt::format("Functions, by samples of {} time every {:.3g} ms per thread ({}): {} samples",
                  samples.wall_clock ? "elapsed" : "CPU", static_cast<double>(samples.period_ns) / 1e6,
                  source_words(samples), samples.samples);
  if (samples.effective_hz > 0) out += fmt::format(", {:.0f} per second of CPU time", samples.effective_hz);
  if (samples.dropped > 0)
    out += fmt::format(" ({} not recorded: a thread's call-path table was full)", samples.dropped);
  out += "\n";
  if (samples.not_unwound > 0)
    out += fmt::format(
        "  {} of them ({:.1f} %) could not be walked back to their thread's start: their call paths begin at "
        "{} (code without call-frame tables or frame pointers)\n",
        samples.not_unwound,
        100.0 * static_cast<double>(samples.not_unwound) / static_cast<double>(samples.samples),
        analysis::kUnwindingStoppedFrame);
  if (samples.start_up + samples.shut_down > 0)
    out += fmt::format(
        "  {} more samples during start-up and {} during shut-down (inside the programming model's "
        "initialisation and finalisation) are counted apart, in no interval\n",
        samples.start_up, samples.shut_down);
  if (samples.model_threads > 0)
    out += fmt::format(
        "  {} threads that the programming model's libraries started for themselves (progress threads) are "
        "not the program's: not sampled\n",
        samples.model_threads);
  for (const analysis::IntervalSamples& interval : samples.intervals) {
    out += fmt::format("\n{}: {} samples\n", interval_label(interval), interval.samples);
    out += fmt::format("  {:<12}  {:<12}  {:>8}  {:<32} {}\n", "self (95 %)", "incl", "samples", "function",
                       "where");
    for (const analysis::SampledFunction* shown : shown_functions(interval, top)) {
      const analysis::SampledFunction& f = *shown;
      out += fmt::format("  {}  {}  {:>8}  {:<32} {}\n", share_text(f.self_share),
                         share_text(f.inclusive_share), f.self, printable(f.function), where(f));
    }
    if (!interval.ranked)
      out +=
          "  the first two functions' shares are within their 95 % intervals of each other: too few samples "
          "to rank them\n";
    out += "  call paths:\n";
    for (std::size_t i = 0; i < interval.paths.size() && (top == 0 || i < top); ++i)
      out += fmt::format("  {:>5.1f}%  {}\n", percent(interval.paths[i].samples, interval.samples),
                         joined(interval.paths[i].frames, " > "));
    if (interval.processors.size() > 1) {
      out += "  per processor, top function:\n";
      for (const analysis::ProcessorTopFunction& p : interval.processors)
        out += fmt::format("  {:>4}  {:>8} samples  {} ({:.1f}% of its samples)\n", p.processor, p.samples,
                           printable(p.function), percent(p.self, p.samples));
    }
    for (std::size_t n = 0; n < findings.size(); ++n) {
      const auto& cause = findings[n].sampled_cause;
      if (cause && std::find(cause->intervals.begin(), cause->intervals.end(), interval.interval) !=
                       cause->intervals.end())
        out += fmt::format("  why processors wait (finding {}): {}\n", n + 1,
                           printable(sampled_cause_text(*cause)));
    }
  }
  for (const std::string& warning : samples.warnings) out += fmt::format("warning: {}\n", printable(warning));
  return out;
}

std::string folded_stacks_text(const analysis::SampleProfile& samples) {
  std::string out;
  for (const analysis::FoldedStack& stack : samples.folded)
    out += fmt::format("{} {}\n", joined(stack.frames, ";"), stack.samples);
  return out;
}

nlohmann::ordered_json samples_json(const analysis::SampleProfile& samples, std::size_t top) {
  if (!samples.sampled) return nullptr;
  nlohmann::ordered_json json;
  json["clock"] = samples.wall_clock ? "wall" : "cpu";
  json["period"] = static_cast<double>(samples.period_ns) / 1e9;
  json["source"] = samples.source;
  json["effective_rate"] = samples.effective_hz > 0 ? nlohmann::ordered_json(samples.effective_hz) : nullptr;
  json["samples"] = samples.samples;
  json["dropped"] = samples.dropped;
  json["not_unwound"] = samples.not_unwound;
  json["start_up"] = samples.start_up;
  json["shut_down"] = samples.shut_down;
  json["model_threads"] = samples.model_threads;
  json["intervals"] = nlohmann::ordered_json::array();
  for (const analysis::IntervalSamples& interval : samples.intervals) {
    nlohmann::ordered_json i;
    i["interval"] = interval.interval;
    i["name"] = interval.identity.name;
    i["path"] = interval.path;
    i["samples"] = interval.samples;
    i["ranked"] = interval.ranked;
    i["functions"] = nlohmann::ordered_json::array();
    for (const analysis::SampledFunction* shown : shown_functions(interval, top)) {
      const analysis::SampledFunction& f = *shown;
      i["functions"].push_back({{"function", f.function},
                                {"file", f.file},
                                {"line", f.line},
                                {"self", f.self},
                                {"inclusive", f.inclusive},
                                {"self_share", f.self_share.share},
                                {"self_interval", interval_json(f.self_share)},
                                {"inclusive_share", f.inclusive_share.share},
                                {"inclusive_interval", interval_json(f.inclusive_share)}});
    }
    i["paths"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < interval.paths.size() && (top == 0 || k < top); ++k)
      i["paths"].push_back({{"frames", interval.paths[k].frames}, {"samples", interval.paths[k].samples}});
    i["processors"] = nlohmann::ordered_json::array();
    for (const analysis::ProcessorTopFunction& p : interval.processors)
      i["processors"].push_back(
          {{"processor", p.processor}, {"samples", p.samples}, {"function", p.function}, {"self", p.self}});
    json["intervals"].push_back(std::move(i));
  }
  json["warnings"] = samples.warnings;
  return json;
}

}  // namespace parperf::report
