// The renderers of locality results: the JSON carries the engine's values under the documented
// keys and reads back to the same result, foreign input is refused, the text shows the scores, and
// the SVG pictures are well-formed, draw one marker per point and escape names. The reports come
// from the real LocalityAnalyzer, so that the histograms have the engine's shape.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/locality/locality_analyzer.hpp"
#include "format/locality_file.hpp"
#include "report/locality/address_bands.hpp"
#include "report/locality/locality_format.hpp"
#include "report/locality/locality_json.hpp"
#include "report/locality/locality_svg.hpp"
#include "report/locality/locality_text.hpp"
#include "report/svg_document.hpp"

namespace parperf::report {
namespace {

using json = nlohmann::json;
using format::DistanceRange;
using format::locality_from_json;
using format::LocalityFunction;
using format::LocalityResult;
using format::reuse_bin_range;
using locality::LocalityHistograms;
using locality::LocalityScores;

constexpr std::uint64_t kSweepBase = 0x10000000;       // function 1's array
constexpr std::uint64_t kRandomBase = 0x7ff000000000;  // function 2's, far away (another region)

// Function 1 ("sweep", thread 0): a unit-stride pass of loads over 4000 words, then one of stores.
// Function 2 ("a<b>", thread 1): 12000 accesses to random words 64 words apart, every 4th a store.
// Function 2 has more accesses, so sorting by accesses puts it first, against the id order.
LocalityResult sample_result() {
  locality::LocalityAnalyzer analyzer;
  for (const bool store : {false, true})
    for (std::uint64_t w = 0; w < 4000; ++w) analyzer.add({kSweepBase + w * 8, 1, 0, 8, store});
  std::mt19937_64 random(42);
  std::uniform_int_distribution<std::uint64_t> pick(0, 1 << 16);
  for (std::uint64_t i = 0; i < 12000; ++i)
    analyzer.add({kRandomBase + pick(random) * 64 * 8, 2, 1, 8, i % 4 == 0});
  LocalityResult result;
  result.report = analyzer.finish();
  result.functions[1] = {"sweep", "/src/kernels/sweep.c", 12, "bench"};
  result.functions[2] = {"a<b>", "/src/rand.cpp", 40, "libr.so"};
  result.source = "parperf-mem";
  result.command_line = "./bench --n=5 & more";
  result.dropped = 17;
  result.warnings = {"thread 3: buffer overflow"};
  return result;
}

const LocalityResult& sample() {
  static const LocalityResult result = sample_result();
  return result;
}

std::set<std::string> keys_of(const nlohmann::ordered_json& object) {
  std::set<std::string> keys;
  for (const auto& [key, value] : object.items()) keys.insert(key);
  return keys;
}

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

void expect_scores_json(const nlohmann::ordered_json& j, const LocalityScores& s) {
  const LocalityHistograms& h = s.histograms;
  EXPECT_EQ(j.at("spatial_locality").get<double>(), s.spatial);
  EXPECT_EQ(j.at("temporal_locality").get<double>(), s.temporal);
  EXPECT_EQ(j.at("loads").get<std::uint64_t>(), h.load_accesses);
  EXPECT_EQ(j.at("stores").get<std::uint64_t>(), h.store_accesses);
  EXPECT_EQ(j.at("load_words").get<std::uint64_t>(), h.load_words);
  EXPECT_EQ(j.at("store_words").get<std::uint64_t>(), h.store_words);
  EXPECT_EQ(j.at("word_accesses").get<std::uint64_t>(), h.word_accesses);
  EXPECT_EQ(j.at("footprint_words").get<std::uint64_t>(), h.footprint_words);
  EXPECT_EQ(j.at("cold").get<std::uint64_t>(), h.cold);
  EXPECT_EQ(j.at("stride_histogram").get<std::vector<std::uint64_t>>(), h.strides);
  std::size_t non_empty = 0;
  for (std::size_t b = 0; b < h.reuse.size(); ++b) non_empty += h.reuse[b] != 0;
  ASSERT_EQ(j.at("reuse_histogram").size(), non_empty);
  for (const auto& bin : j.at("reuse_histogram")) {
    const auto b = bin.at("bin").get<std::size_t>();
    EXPECT_EQ(bin.at("count").get<std::uint64_t>(), h.reuse.at(b));
    EXPECT_EQ(bin.at("min_distance").get<std::uint64_t>(), reuse_bin_range(b).min);
    EXPECT_EQ(bin.at("max_distance").get<std::uint64_t>(), reuse_bin_range(b).max);
  }
}

void expect_same_scores(const LocalityScores& a, const LocalityScores& b) {
  EXPECT_EQ(a.spatial, b.spatial);
  EXPECT_EQ(a.temporal, b.temporal);
  const LocalityHistograms& x = a.histograms;
  const LocalityHistograms& y = b.histograms;
  EXPECT_EQ(x.load_accesses, y.load_accesses);
  EXPECT_EQ(x.store_accesses, y.store_accesses);
  EXPECT_EQ(x.load_words, y.load_words);
  EXPECT_EQ(x.store_words, y.store_words);
  EXPECT_EQ(x.word_accesses, y.word_accesses);
  EXPECT_EQ(x.footprint_words, y.footprint_words);
  EXPECT_EQ(x.strides, y.strides);
  EXPECT_EQ(x.reuse, y.reuse);
  EXPECT_EQ(x.cold, y.cold);
}

// Element nesting of an SVG document: every tag closed in order, no stray '<' or '&' in text, one
// root. Enough to catch unescaped names and unbalanced elements.
void expect_well_formed(std::string_view svg) {
  ASSERT_TRUE(svg.starts_with("<svg"));
  ASSERT_TRUE(svg.ends_with("</svg>\n"));
  std::vector<std::string> open;
  std::size_t roots = 0;
  for (std::size_t i = 0; i < svg.size();) {
    if (svg[i] == '&') {
      const std::size_t semicolon = svg.find(';', i);
      ASSERT_NE(semicolon, std::string_view::npos);
      const std::string_view entity = svg.substr(i, semicolon + 1 - i);
      EXPECT_TRUE(entity == "&amp;" || entity == "&lt;" || entity == "&gt;" || entity == "&quot;" ||
                  entity == "&apos;" || entity.starts_with("&#"))
          << entity;
      i = semicolon + 1;
      continue;
    }
    if (svg[i] != '<') {
      ++i;
      continue;
    }
    const std::size_t end = svg.find('>', i);
    ASSERT_NE(end, std::string_view::npos);
    const std::string_view tag = svg.substr(i + 1, end - i - 1);
    ASSERT_FALSE(tag.empty());
    ASSERT_EQ(tag.find('<'), std::string_view::npos) << tag;
    if (tag.front() == '/') {
      ASSERT_FALSE(open.empty()) << tag;
      EXPECT_EQ(std::string(tag.substr(1)), open.back());
      open.pop_back();
    } else {
      const std::string name(tag.substr(0, tag.find_first_of(" /")));
      ASSERT_TRUE(std::all_of(name.begin(), name.end(), [](char c) { return std::isalpha(c) != 0; })) << tag;
      if (open.empty()) ++roots;
      if (tag.back() != '/') open.push_back(name);
    }
    i = end + 1;
  }
  EXPECT_TRUE(open.empty());
  EXPECT_EQ(roots, 1u);
}

TEST(locality_report_json, HasTheRequiredKeysAndTheReportsValues) {
  const LocalityResult& r = sample();
  const nlohmann::ordered_json j = locality_json(r);
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"format", "version", "source", "command_line", "dropped",
                                               "options", "program", "functions", "threads", "warnings"}));
  EXPECT_EQ(j.at("format"), "parperf-locality");
  EXPECT_EQ(j.at("version"), 1);
  EXPECT_EQ(j.at("source"), "parperf-mem");
  EXPECT_EQ(j.at("command_line"), "./bench --n=5 & more");
  EXPECT_EQ(j.at("dropped"), 17);
  EXPECT_EQ(j.at("warnings"), nlohmann::ordered_json::array({"thread 3: buffer overflow"}));
  const auto& options = j.at("options");
  EXPECT_EQ(options.at("word_bytes"), 8);
  EXPECT_EQ(options.at("window"), r.report.options.window);
  EXPECT_EQ(options.at("max_stride"), r.report.options.max_stride);
  EXPECT_EQ(options.at("log2_n"), 20);
  EXPECT_EQ(options.at("sample_rate"), 1.0);
  EXPECT_EQ(options.at("presampled_rate"), 1.0);
  EXPECT_EQ(options.at("effective_sample_rate"), r.report.effective_sample_rate);

  expect_scores_json(j.at("program"), r.report.program);
  // Most word accesses first: the random function 2 before the sweep 1.
  const auto& functions = j.at("functions");
  ASSERT_EQ(functions.size(), 2u);
  EXPECT_EQ(functions[0].at("id"), 2);
  EXPECT_EQ(functions[1].at("id"), 1);
  EXPECT_EQ(functions[0].at("function"), "a<b>");
  EXPECT_EQ(functions[1].at("function"), "sweep");
  EXPECT_EQ(functions[1].at("file"), "/src/kernels/sweep.c");
  EXPECT_EQ(functions[1].at("line"), 12);
  EXPECT_EQ(functions[1].at("module"), "bench");
  expect_scores_json(functions[0], r.report.functions.at(2));
  expect_scores_json(functions[1], r.report.functions.at(1));
  // The engine's values, to be sure the sample is what the names say.
  EXPECT_NEAR(functions[1].at("spatial_locality").get<double>(), 1.0, 0.01);
  EXPECT_LT(functions[0].at("spatial_locality").get<double>(), 0.01);
  EXPECT_EQ(functions[1].at("loads"), 4000);
  EXPECT_EQ(functions[1].at("stores"), 4000);
  EXPECT_EQ(functions[1].at("footprint_words"), 4000);

  const auto& threads = j.at("threads");
  ASSERT_EQ(threads.size(), 2u);
  EXPECT_EQ(threads[0].at("thread"), 0);
  EXPECT_EQ(threads[1].at("thread"), 1);
  expect_scores_json(threads[0], r.report.threads.at(0));
  expect_scores_json(threads[1], r.report.threads.at(1));
}

TEST(locality_report_json, UnknownFunctionsHaveEmptyFields) {
  LocalityResult r = sample();
  r.functions.erase(2);
  const nlohmann::ordered_json j = locality_json(r);
  EXPECT_EQ(j.at("functions")[0].at("function"), "");
  EXPECT_EQ(j.at("functions")[0].at("file"), "");
  EXPECT_EQ(j.at("functions")[0].at("line"), 0);
}

TEST(locality_report_json, RoundTripsEverythingButTheScatter) {
  const LocalityResult& r = sample();
  const LocalityResult back = locality_from_json(json::parse(locality_json_text(r)), "saved.json");
  EXPECT_EQ(back.source, r.source);
  EXPECT_EQ(back.command_line, r.command_line);
  EXPECT_EQ(back.dropped, r.dropped);
  EXPECT_EQ(back.warnings, r.warnings);
  EXPECT_EQ(back.report.options.word_bytes, r.report.options.word_bytes);
  EXPECT_EQ(back.report.options.window, r.report.options.window);
  EXPECT_EQ(back.report.options.max_stride, r.report.options.max_stride);
  EXPECT_EQ(back.report.options.log2_n, r.report.options.log2_n);
  EXPECT_EQ(back.report.options.sample_rate, r.report.options.sample_rate);
  EXPECT_EQ(back.report.options.presampled_rate, r.report.options.presampled_rate);
  EXPECT_EQ(back.report.effective_sample_rate, r.report.effective_sample_rate);
  expect_same_scores(back.report.program, r.report.program);
  ASSERT_EQ(back.report.functions.size(), r.report.functions.size());
  for (const auto& [id, scores] : r.report.functions)
    expect_same_scores(back.report.functions.at(id), scores);
  ASSERT_EQ(back.report.threads.size(), r.report.threads.size());
  for (const auto& [thread, scores] : r.report.threads)
    expect_same_scores(back.report.threads.at(thread), scores);
  ASSERT_EQ(back.functions.size(), 2u);
  for (const auto& [id, f] : r.functions) {
    EXPECT_EQ(back.functions.at(id).name, f.name);
    EXPECT_EQ(back.functions.at(id).file, f.file);
    EXPECT_EQ(back.functions.at(id).line, f.line);
    EXPECT_EQ(back.functions.at(id).module, f.module);
  }
  EXPECT_TRUE(back.report.scatter.empty());
  // Written again, it is the same document.
  EXPECT_EQ(locality_json(back), locality_json(r));
}

TEST(locality_report_json, RoundTripsSampledOptions) {
  locality::LocalityOptions options;
  options.sample_rate = 0.25;
  options.presampled_rate = 0.5;
  options.max_stride = 8;
  options.log2_n = 12;
  options.word_bytes = 4;
  locality::LocalityAnalyzer analyzer(options);
  for (std::uint64_t w = 0; w < 5000; ++w) analyzer.add({w * 4, 7, 0, 4, false});
  LocalityResult r;
  r.report = analyzer.finish();
  const LocalityResult back = locality_from_json(json::parse(locality_json(r).dump()), "x");
  EXPECT_EQ(back.report.options.sample_rate, 0.25);
  EXPECT_EQ(back.report.options.presampled_rate, 0.5);
  EXPECT_EQ(back.report.options.max_stride, 8u);
  EXPECT_EQ(back.report.options.log2_n, 12u);
  EXPECT_EQ(back.report.options.word_bytes, 4u);
  EXPECT_EQ(back.report.effective_sample_rate, r.report.effective_sample_rate);
  EXPECT_TRUE(back.functions.empty());  // id 7 had no name, and gets none
  expect_same_scores(back.report.functions.at(7), r.report.functions.at(7));
}

// The message of the error locality_from_json throws, "" when it does not.
std::string refusal(const json& input) {
  try {
    locality_from_json(input, "trace.json");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

json sample_json() { return json::parse(locality_json(sample()).dump()); }

TEST(locality_report_json, RefusesForeignAndMalformedInput) {
  const std::string prefix = "trace.json: not a parperf locality result: ";
  const auto expect_refused = [&](const json& input, std::string_view detail) {
    const std::string message = refusal(input);
    EXPECT_TRUE(message.starts_with(prefix)) << message;
    EXPECT_NE(message.find(detail), std::string::npos) << message;
  };
  expect_refused(json::parse(R"({"parperf_report": 1, "run": {}})"), "format");
  expect_refused(json::parse(R"([1, 2])"), "not a JSON object");
  expect_refused(json::parse(R"({"format": "chrome-trace"})"), "chrome-trace");
  json j = sample_json();
  j["version"] = 2;
  expect_refused(j, "version 2");
  j = sample_json();
  j.erase("program");
  expect_refused(j, "\"program\"");
  j = sample_json();
  j["functions"][0]["loads"] = -1;
  expect_refused(j, "function 2.loads is negative");
  j = sample_json();
  j["functions"][0]["spatial_locality"] = "high";
  expect_refused(j, "spatial_locality is not a number");
  j = sample_json();
  j["program"]["stride_histogram"].push_back(1);
  expect_refused(j, "max_stride + 2");
  j = sample_json();
  j["program"]["reuse_histogram"][0]["max_distance"] = 12345;
  expect_refused(j, "does not have the distances");
  j = sample_json();
  j["threads"][1]["thread"] = 70000;
  expect_refused(j, "out of range");
  j = sample_json();
  j["threads"].push_back(j["threads"][0]);
  expect_refused(j, "thread 0 is listed twice");
  j = sample_json();
  j["options"]["presampled_rate"] = "all";
  expect_refused(j, "options.presampled_rate is not a number");
  // The untouched document is accepted, and so is one without the optional presampled_rate.
  EXPECT_EQ(refusal(sample_json()), "");
  j = sample_json();
  j["options"].erase("presampled_rate");
  EXPECT_EQ(locality_from_json(j, "old.json").report.options.presampled_rate, 1.0);
}

TEST(locality_report_text, ShowsTheScoresOfTheProgramFunctionsAndThreads) {
  const LocalityResult& r = sample();
  const std::string text = locality_text(r);
  const LocalityScores& sweep = r.report.functions.at(1);
  const LocalityScores& random = r.report.functions.at(2);
  EXPECT_NE(text.find("parperf-mem"), std::string::npos);
  EXPECT_NE(text.find("./bench --n=5 & more"), std::string::npos);
  EXPECT_NE(text.find("17 accesses could not be recorded"), std::string::npos);
  EXPECT_NE(text.find("thread 3: buffer overflow"), std::string::npos);
  EXPECT_NE(text.find("spatial locality (SL)    " + format_score(r.report.program.spatial)),
            std::string::npos);
  EXPECT_NE(text.find("temporal locality (TL)   " + format_score(r.report.program.temporal)),
            std::string::npos);
  EXPECT_NE(text.find("footprint                " +
                      format_exact_count(r.report.program.histograms.footprint_words)),
            std::string::npos);

  // The table rows: name, location (basename:line), SL, TL, loads, stores.
  const auto row = [&](std::string_view name) {
    const std::size_t table = text.find("functions by word accesses");
    const std::size_t at = text.find(std::string("\n  ") + std::string(name), table);
    EXPECT_NE(at, std::string::npos) << name;
    return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  const std::string sweep_row = row("sweep");
  EXPECT_NE(sweep_row.find("sweep.c:12"), std::string::npos) << sweep_row;
  EXPECT_EQ(sweep_row.find("/src/kernels"), std::string::npos) << sweep_row;
  EXPECT_NE(sweep_row.find(format_score(sweep.spatial) + "  " + format_score(sweep.temporal) +
                           "     4000     4000"),
            std::string::npos)
      << sweep_row;
  const std::string random_row = row("a<b>");
  EXPECT_NE(random_row.find("rand.cpp:40"), std::string::npos) << random_row;
  EXPECT_NE(random_row.find(format_score(random.spatial) + "  " + format_score(random.temporal)),
            std::string::npos)
      << random_row;
  EXPECT_LT(text.find("\n  a<b>"), text.find("\n  sweep"));  // by accesses

  // Two threads: their lines. The histograms of the program.
  EXPECT_NE(text.find("\nthreads\n"), std::string::npos);
  EXPECT_NE(text.find("stride 1"), std::string::npos);
  EXPECT_NE(text.find("longer or none"), std::string::npos);
  EXPECT_NE(text.find("cold (first)"), std::string::npos);
  // The reading: the random function has poor spatial locality, the sweep good.
  const std::size_t reading = text.find("\ninterpretation\n");
  ASSERT_NE(reading, std::string::npos);
  const std::size_t random_reading = text.find("a<b> (rand.cpp:40)", reading);
  const std::size_t sweep_reading = text.find("sweep (sweep.c:12)", reading);
  ASSERT_NE(random_reading, std::string::npos);
  ASSERT_NE(sweep_reading, std::string::npos);
  EXPECT_NE(text.substr(random_reading, sweep_reading - random_reading).find("poor spatial locality"),
            std::string::npos);
  EXPECT_NE(text.substr(sweep_reading).find("good spatial locality"), std::string::npos);
}

TEST(locality_report_text, LimitsTheFunctionTable) {
  const std::string text = locality_text(sample(), 1);
  EXPECT_NE(text.find("(1 of 2; the JSON has all)"), std::string::npos);
  EXPECT_EQ(text.find("\n  sweep "), std::string::npos);
}

TEST(locality_report_text, SaysHowTheAccessesWereSampled) {
  EXPECT_NE(locality_text(sample()).find("sampling  none (exact)"), std::string::npos);
  LocalityResult r = sample();
  r.report.options.sample_rate = 0.1;
  r.report.options.presampled_rate = 0.5;
  r.report.effective_sample_rate = 0.05;
  EXPECT_NE(
      locality_text(r).find("words sampled by the capturer at rate 0.5, then SHARDS rate 0.1: counts are "
                            "estimates scaled by 1/0.05"),
      std::string::npos);
}

TEST(locality_report_text, SaysWhenThereIsNoAccess) {
  LocalityResult empty;
  empty.report = locality::LocalityAnalyzer().finish();
  const std::string text = locality_text(empty);
  EXPECT_NE(text.find("no memory access was analysed"), std::string::npos);
}

TEST(locality_report_svg, ScatterDrawsEachPointInTwoBands) {
  const LocalityResult& r = sample();
  ASSERT_EQ(r.report.scatter.size(), 20000u);  // every access: fewer than the sample's capacity
  const std::string svg = scatter_svg(r);
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle"), r.report.scatter.size());
  EXPECT_EQ(count(svg, "<g class=\"load\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"store\">"), 1u);
  // The sweep's and the random function's arrays are two regions, labelled with their ranges.
  EXPECT_NE(svg.find("region 1: " + format_address(kSweepBase)), std::string::npos);
  EXPECT_NE(svg.find("region 2: " + format_address(kRandomBase)), std::string::npos);
  EXPECT_EQ(svg.find("region 3"), std::string::npos);
  EXPECT_NE(svg.find("./bench --n=5 &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("& more"), std::string::npos);
}

TEST(locality_report_svg, ScatterWithoutPointsIsStillAPicture) {
  LocalityResult empty;
  const std::string svg = scatter_svg(empty);
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle"), 0u);
}

TEST(locality_report_svg, ReuseHistogramHasABarPerBinAndCold) {
  const LocalityResult& r = sample();
  const std::string svg = reuse_histogram_svg(r);
  expect_well_formed(svg);
  const LocalityHistograms& h = r.report.program.histograms;
  std::size_t last = r.report.options.log2_n;
  for (std::size_t b = 0; b < h.reuse.size(); ++b)
    if (h.reuse[b] != 0) last = std::max(last, b);
  EXPECT_EQ(count(svg, "<rect class=\"bar\""), last + 1);
  EXPECT_EQ(count(svg, "<rect class=\"cold\""), 1u);
  // Each bar's tooltip has its exact count.
  for (std::size_t b = 0; b < h.reuse.size(); ++b)
    if (h.reuse[b] != 0) {
      const DistanceRange range = reuse_bin_range(b);
      EXPECT_NE(svg.find(fmt::format("reuse distance {}..{}: {} word accesses", range.min, range.max,
                                     format_exact_count(h.reuse[b]))),
                std::string::npos)
          << b;
    }
  EXPECT_NE(svg.find(fmt::format("cold (first) accesses: {} word accesses", format_exact_count(h.cold))),
            std::string::npos);
}

TEST(locality_report_svg, SquareHasAPointPerFunctionAndTheProgram) {
  const LocalityResult& r = sample();
  const std::string svg = locality_square_svg(r);
  expect_well_formed(svg);
  EXPECT_EQ(count(svg, "<circle class=\"function\""), 2u);
  EXPECT_EQ(count(svg, "<polygon class=\"program\""), 1u);
  EXPECT_NE(svg.find(">a&lt;b&gt;</text>"), std::string::npos);
  EXPECT_NE(svg.find(">sweep</text>"), std::string::npos);
  EXPECT_NE(svg.find(">program</text>"), std::string::npos);
  EXPECT_EQ(svg.find("a<b>"), std::string::npos);
  // The sweep (SL ~1) lies at the right edge, the random function (SL ~0) at the left one.
  EXPECT_NE(
      svg.find(fmt::format("sweep (sweep.c:12): SL {}", format_score(r.report.functions.at(1).spatial))),
      std::string::npos);
  EXPECT_EQ(count(locality_square_svg(r, 1), "<circle class=\"function\""), 1u);
}

TEST(locality_report_svg, EscapesMarkupAndInvalidUtf8) {
  EXPECT_EQ(xml_escape("a<b> & \"c\" 'd'"), "a&lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;");
  EXPECT_EQ(xml_escape("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");                // UTF-8 stays
  EXPECT_EQ(xml_escape("x\xFFy\x01"), "x\xEF\xBF\xBDy\xEF\xBF\xBD");              // not UTF-8, control
  EXPECT_EQ(xml_escape("\xE2\x82"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // truncated sequence
  EXPECT_EQ(xml_escape("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
}

TEST(locality_report_bands, CutsOnlyAtGapsThatEmptyAQuarterOfTheBand) {
  // Two arrays 2^40 bytes apart: two bands, each with its points.
  std::vector<std::uint64_t> two = {0x1000, 0x1008, 0x1010, 0x10000001000, 0x10000001008};
  std::vector<AddressBand> bands = address_bands(two);
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].low, 0x1000u);
  EXPECT_EQ(bands[0].high, 0x1010u);
  EXPECT_EQ(bands[0].points, 3u);
  EXPECT_EQ(bands[1].low, 0x10000001000u);
  EXPECT_EQ(bands[1].points, 2u);
  EXPECT_EQ(band_of(bands, 0x1008), 0u);
  EXPECT_EQ(band_of(bands, 0x10000001008), 1u);

  // A sparse sample of one 512 KiB array: gaps over a quarter of the span but below 1 MiB.
  bands = address_bands(std::vector<std::uint64_t>{0, 0x10000, 0x80000});
  EXPECT_EQ(bands.size(), 1u);
  // Blocks sampled every 64 KiB: a gap of 4 MiB between two 1 MiB blocks is 2/3 of the span, cut...
  const auto blocks = [](std::initializer_list<std::pair<std::uint64_t, std::uint64_t>> ranges) {
    std::vector<std::uint64_t> addresses;
    for (const auto& [low, high] : ranges)
      for (std::uint64_t a = low; a <= high; a += 0x10000) addresses.push_back(a);
    return addresses;
  };
  bands = address_bands(blocks({{0, 0x100000}, {0x500000, 0x600000}}));
  ASSERT_EQ(bands.size(), 2u);
  EXPECT_EQ(bands[0].high, 0x100000u);
  EXPECT_EQ(bands[1].low, 0x500000u);
  // ...but a gap of 2 MiB between two 4 MiB blocks is a fifth of their span: one band.
  bands = address_bands(blocks({{0, 0x400000}, {0x600000, 0xA00000}}));
  EXPECT_EQ(bands.size(), 1u);
  // Nested regions: heap, then mmap and stack close together (relative to the heap's distance).
  bands = address_bands(std::vector<std::uint64_t>{0x55000000, 0x55000100, 0x7f0000000000, 0x7f0000000040,
                                                   0x7ffc00000000, 0x7ffc00000010});
  EXPECT_EQ(bands.size(), 3u);
  EXPECT_EQ(address_bands(two, 1).size(), 1u);  // at most max_bands
  EXPECT_TRUE(address_bands(std::vector<std::uint64_t>{}).empty());
}

TEST(locality_report_format, WritesNumbersAsDocumented) {
  EXPECT_EQ(format_score(0.04912), "0.049");
  EXPECT_EQ(format_exact_count(1234567), "1,234,567");
  EXPECT_EQ(format_exact_count(999), "999");
  EXPECT_EQ(format_count(9999), "9999");
  EXPECT_EQ(format_count(12345), "12.3k");
  EXPECT_EQ(format_count(999'999), "1.00M");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(8'000'000), "7.63 MiB");
  EXPECT_EQ(format_share(0.5), "50.0%");
  EXPECT_EQ(format_share(0.0001), "<0.1%");
  EXPECT_EQ(format_share(0), "0%");
  EXPECT_EQ(power_of_two_label(0), "1");
  EXPECT_EQ(power_of_two_label(20), "1M");
  EXPECT_EQ(power_of_two_label(64), "16E");
  EXPECT_EQ(reuse_bin_label(0), "0-1");
  EXPECT_EQ(reuse_bin_label(11), "(1K, 2K]");
  EXPECT_EQ(reuse_bin_range(1).min, 2u);
  EXPECT_EQ(reuse_bin_range(1).max, 2u);
  EXPECT_EQ(reuse_bin_range(3).min, 5u);
  EXPECT_EQ(reuse_bin_range(3).max, 8u);
  EXPECT_EQ(reuse_bin_range(64).max, ~std::uint64_t{0});
}

}  // namespace
}  // namespace parperf::report
