#include "format/locality_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "format/new_file.hpp"
#include "format/regular_file.hpp"
#include "format/run_directory.hpp"

namespace parperf::format {
namespace {

using ordered = nlohmann::ordered_json;
using json = nlohmann::json;

// locality.json holds histograms and one entry per function: megabytes at most for real programs.
constexpr std::uint64_t kMaxLocalityBytes = 256 * 1024 * 1024;

// The format library does without fmt (the fuzz targets compile its sources alone): messages are
// put together from pieces.
std::string text(std::string_view piece) { return std::string(piece); }
std::string text(const std::string& piece) { return piece; }
std::string text(const char* piece) { return piece; }
template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
std::string text(Number number) {
  return std::to_string(number);
}
template <class... Pieces>
std::string concat(const Pieces&... pieces) {
  std::string out;
  (out += ... += text(pieces));
  return out;
}

// ---- writing ----

ordered reuse_histogram_json(const LocalityHistograms& h) {
  ordered bins = ordered::array();
  for (std::size_t bin = 0; bin < h.reuse.size(); ++bin) {
    if (h.reuse[bin] == 0) continue;  // 65 bins, most of them empty: list only those with counts
    const DistanceRange range = reuse_bin_range(bin);
    bins.push_back(
        {{"bin", bin}, {"min_distance", range.min}, {"max_distance", range.max}, {"count", h.reuse[bin]}});
  }
  return bins;
}

// Appends the <scores> keys, so that functions and threads carry them after their own keys.
void put_scores(ordered& out, const LocalityScores& scores) {
  const LocalityHistograms& h = scores.histograms;
  out["spatial_locality"] = scores.spatial;
  out["temporal_locality"] = scores.temporal;
  out["loads"] = h.load_accesses;
  out["stores"] = h.store_accesses;
  out["load_words"] = h.load_words;
  out["store_words"] = h.store_words;
  out["word_accesses"] = h.word_accesses;
  out["footprint_words"] = h.footprint_words;
  out["cold"] = h.cold;
  out["stride_histogram"] = h.strides;
  out["reuse_histogram"] = reuse_histogram_json(h);
}

ordered options_json(const LocalityReport& report) {
  const LocalityOptions& o = report.options;
  ordered out = {{"word_bytes", o.word_bytes},
                 {"window", o.window},
                 {"max_stride", o.max_stride},
                 {"log2_n", o.log2_n},
                 {"sample_rate", o.sample_rate},
                 {"presampled_rate", o.presampled_rate},
                 {"effective_sample_rate", report.effective_sample_rate}};
  if (o.burst_length > 0) {
    out["burst_length"] = o.burst_length;
    out["mean_gap"] = o.mean_gap;
    out["burst_warmup"] = burst_warmup(o.burst_length);
    out["bursts"] = report.uncertainty.bursts;
  }
  return out;
}

// The 95 % half widths of the program's scores from the bursts; null when unknown (fewer than 2).
ordered uncertainty_json(const BurstUncertainty& u) {
  auto width = [](double w) { return w < 0 ? ordered(nullptr) : ordered(w); };
  return {{"confidence", 0.95},
          {"spatial_locality", width(u.spatial_half_width)},
          {"temporal_locality", width(u.temporal_half_width)}};
}

// ---- reading ----

// The input's name and the one error every malformed input ends in.
struct Input {
  std::string_view name;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(concat(name, ": not a parperf locality result: ", what));
  }

  const json& member(const json& object, std::string_view key, std::string_view where) const {
    const auto it = object.find(key);
    if (it == object.end()) fail(concat(where, " has no \"", key, "\""));
    return *it;
  }

  const json& object(const json& value, std::string_view where) const {
    if (!value.is_object()) fail(concat(where, " is not an object"));
    return value;
  }

  const json& array(const json& value, std::string_view where) const {
    if (!value.is_array()) fail(concat(where, " is not an array"));
    return value;
  }

  // A non-negative integer that fits T. Hand-built JSON holds signed integers, parsed JSON unsigned.
  template <class T>
  T integer(const json& value, std::string_view where) const {
    if (!value.is_number_integer()) fail(concat(where, " is not an integer"));
    if (!value.is_number_unsigned() && value.get<std::int64_t>() < 0) fail(concat(where, " is negative"));
    const auto number = value.get<std::uint64_t>();
    if (number > std::numeric_limits<T>::max()) fail(concat(where, " is out of range"));
    return static_cast<T>(number);
  }

  double number(const json& value, std::string_view where) const {
    if (!value.is_number()) fail(concat(where, " is not a number"));
    return value.get<double>();
  }

  std::string string(const json& value, std::string_view where) const {
    if (!value.is_string()) fail(concat(where, " is not a string"));
    return value.get<std::string>();
  }

  template <class T>
  T integer_member(const json& object, std::string_view key, std::string_view where) const {
    return integer<T>(member(object, key, where), concat(where, ".", key));
  }
  double number_member(const json& object, std::string_view key, std::string_view where) const {
    return number(member(object, key, where), concat(where, ".", key));
  }
  std::string string_member(const json& object, std::string_view key, std::string_view where) const {
    return string(member(object, key, where), concat(where, ".", key));
  }
};

void read_reuse_histogram(const Input& in, const json& bins, std::string_view where, LocalityHistograms& h) {
  std::set<std::size_t> seen;
  for (const json& entry : in.array(bins, where)) {
    in.object(entry, where);
    const auto bin = in.integer_member<std::size_t>(entry, "bin", where);
    if (bin >= h.reuse.size())
      in.fail(concat(where, " has bin ", bin, " (bins are 0..", h.reuse.size() - 1, ")"));
    if (!seen.insert(bin).second) in.fail(concat(where, " lists bin ", bin, " twice"));
    // The bounds are redundant; a mismatch means the bins were not the engine's.
    const DistanceRange range = reuse_bin_range(bin);
    if (in.integer_member<std::uint64_t>(entry, "min_distance", where) != range.min ||
        in.integer_member<std::uint64_t>(entry, "max_distance", where) != range.max)
      in.fail(concat(where, " bin ", bin, " does not have the distances (", range.min, "..", range.max, ")"));
    h.reuse[bin] = in.integer_member<std::uint64_t>(entry, "count", where);
  }
}

LocalityScores read_scores(const Input& in, const json& object, const std::string& where,
                           std::uint32_t max_stride) {
  in.object(object, where);
  LocalityScores scores;
  scores.spatial = in.number_member(object, "spatial_locality", where);
  scores.temporal = in.number_member(object, "temporal_locality", where);
  LocalityHistograms& h = scores.histograms;
  h.load_accesses = in.integer_member<std::uint64_t>(object, "loads", where);
  h.store_accesses = in.integer_member<std::uint64_t>(object, "stores", where);
  h.load_words = in.integer_member<std::uint64_t>(object, "load_words", where);
  h.store_words = in.integer_member<std::uint64_t>(object, "store_words", where);
  h.word_accesses = in.integer_member<std::uint64_t>(object, "word_accesses", where);
  h.footprint_words = in.integer_member<std::uint64_t>(object, "footprint_words", where);
  h.cold = in.integer_member<std::uint64_t>(object, "cold", where);

  const std::string strides_where = where + ".stride_histogram";
  for (const json& count : in.array(in.member(object, "stride_histogram", where), strides_where))
    h.strides.push_back(in.integer<std::uint64_t>(count, strides_where));
  // The engine always keeps max_stride + 2 entries; empty only in a result with no report at all.
  const std::size_t expected = std::size_t{max_stride} + 2;
  if (!h.strides.empty() && h.strides.size() != expected)
    in.fail(concat(strides_where, " has ", h.strides.size(), " entries, not max_stride + 2 = ", expected));

  read_reuse_histogram(in, in.member(object, "reuse_histogram", where), where + ".reuse_histogram", h);
  return scores;
}

LocalityOptions read_options(const Input& in, const json& object, LocalityReport& report) {
  constexpr std::string_view where = "options";
  in.object(object, where);
  LocalityOptions o;
  o.word_bytes = in.integer_member<std::uint32_t>(object, "word_bytes", where);
  o.window = in.integer_member<std::uint32_t>(object, "window", where);
  o.max_stride = in.integer_member<std::uint32_t>(object, "max_stride", where);
  o.log2_n = in.integer_member<std::uint32_t>(object, "log2_n", where);
  o.sample_rate = in.number_member(object, "sample_rate", where);
  // Optional: 1 (the capturer recorded every access) when absent.
  if (object.contains("presampled_rate"))
    o.presampled_rate = in.number_member(object, "presampled_rate", where);
  report.effective_sample_rate = in.number_member(object, "effective_sample_rate", where);
  // Optional: only a run sampled in bursts has them.
  if (object.contains("burst_length")) {
    o.burst_length = in.integer_member<std::uint64_t>(object, "burst_length", where);
    o.mean_gap = in.integer_member<std::uint64_t>(object, "mean_gap", where);
    report.uncertainty.bursts = in.integer_member<std::uint64_t>(object, "bursts", where);
  }
  return o;
}

void read_functions(const Input& in, const json& functions, LocalityResult& result) {
  const std::uint32_t max_stride = result.report.options.max_stride;
  for (const json& entry : in.array(functions, "functions")) {
    in.object(entry, "functions[]");
    const auto id = in.integer_member<std::uint32_t>(entry, "id", "functions[]");
    const std::string where = concat("function ", id);
    if (result.report.functions.contains(id)) in.fail(concat(where, " is listed twice"));
    result.report.functions[id] = read_scores(in, entry, where, max_stride);
    LocalityFunction f;
    f.name = in.string_member(entry, "function", where);
    f.file = in.string_member(entry, "file", where);
    f.line = in.integer_member<std::uint32_t>(entry, "line", where);
    f.module = in.string_member(entry, "module", where);
    // Unknown functions are written as empty fields; they are absent from the map, as they came.
    if (!f.name.empty() || !f.file.empty() || f.line != 0 || !f.module.empty())
      result.functions[id] = std::move(f);
  }
}

void read_threads(const Input& in, const json& threads, LocalityResult& result) {
  const std::uint32_t max_stride = result.report.options.max_stride;
  for (const json& entry : in.array(threads, "threads")) {
    in.object(entry, "threads[]");
    const auto thread = in.integer_member<std::uint16_t>(entry, "thread", "threads[]");
    const std::string where = concat("thread ", thread);
    if (result.report.threads.contains(thread)) in.fail(concat(where, " is listed twice"));
    result.report.threads[thread] = read_scores(in, entry, where, max_stride);
  }
}

LocalityResult read_result(const Input& in, const json& input) {
  if (!input.is_object()) in.fail("the document is not a JSON object");
  const auto format = input.find("format");
  if (format == input.end()) in.fail("no \"format\" key");
  if (!format->is_string() || format->get<std::string>() != kLocalityFileFormat)
    in.fail(concat("\"format\" is ", format->dump(), ", not \"", kLocalityFileFormat, "\""));
  const json& version = in.member(input, "version", "the document");
  if (!version.is_number_integer() || version.get<std::int64_t>() != kLocalityFileVersion)
    in.fail(concat("version ", version.dump(), " is not the supported version ", kLocalityFileVersion));

  constexpr std::string_view top = "the document";
  LocalityResult result;
  result.source = in.string_member(input, "source", top);
  result.command_line = in.string_member(input, "command_line", top);
  result.dropped = in.integer_member<std::uint64_t>(input, "dropped", top);
  result.report.options = read_options(in, in.member(input, "options", top), result.report);
  if (const auto u = input.find("uncertainty"); u != input.end()) {
    constexpr std::string_view where = "uncertainty";
    in.object(*u, where);
    auto width = [&](std::string_view key) {
      const json& value = in.member(*u, key, where);
      return value.is_null() ? -1.0 : in.number_member(*u, key, where);
    };
    result.report.uncertainty.spatial_half_width = width("spatial_locality");
    result.report.uncertainty.temporal_half_width = width("temporal_locality");
  }
  result.report.program =
      read_scores(in, in.member(input, "program", top), "program", result.report.options.max_stride);
  read_functions(in, in.member(input, "functions", top), result);
  read_threads(in, in.member(input, "threads", top), result);
  for (const json& warning : in.array(in.member(input, "warnings", top), "warnings"))
    result.warnings.push_back(in.string(warning, "warnings[]"));
  return result;
}

}  // namespace

nlohmann::ordered_json locality_file_json(const LocalityResult& result) {
  const LocalityReport& report = result.report;
  ordered out;
  out["format"] = kLocalityFileFormat;
  out["version"] = kLocalityFileVersion;
  out["source"] = result.source;
  out["command_line"] = result.command_line;
  out["dropped"] = result.dropped;
  out["options"] = options_json(report);

  ordered program = ordered::object();
  put_scores(program, report.program);
  out["program"] = std::move(program);
  if (report.options.burst_length > 0) out["uncertainty"] = uncertainty_json(report.uncertainty);

  ordered functions = ordered::array();
  for (const std::uint32_t id : functions_by_accesses(report)) {
    const auto known = result.functions.find(id);
    const LocalityFunction f = known == result.functions.end() ? LocalityFunction{} : known->second;
    ordered entry = {
        {"id", id}, {"function", f.name}, {"file", f.file}, {"line", f.line}, {"module", f.module}};
    put_scores(entry, report.functions.at(id));
    functions.push_back(std::move(entry));
  }
  out["functions"] = std::move(functions);

  ordered threads = ordered::array();
  for (const auto& [thread, scores] : report.threads) {
    ordered entry = {{"thread", thread}};
    put_scores(entry, scores);
    threads.push_back(std::move(entry));
  }
  out["threads"] = std::move(threads);
  out["warnings"] = result.warnings;
  return out;
}

std::string locality_file_text(const LocalityResult& result) {
  return locality_file_json(result).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

void write_locality_file(const std::filesystem::path& path, const LocalityResult& result) {
  write_new_file(path, locality_file_text(result));  // never through a link planted at `path`
}

LocalityResult locality_from_json(const nlohmann::json& input, std::string_view name) {
  const Input in{name};
  try {
    return read_result(in, input);
  } catch (const nlohmann::json::exception& e) {
    // Only conversions the checks above missed can get here; the message still names the input.
    in.fail(e.what());
  }
}

std::optional<LocalityResult> read_locality_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, error))) return std::nullopt;
  const std::string content = RegularFile(path).read_all(kMaxLocalityBytes, "a locality.json");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(content);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(concat(path.string(), ": not valid JSON: ", e.what()));
  }
  return locality_from_json(json, path.string());
}

std::string rank_directory_name(std::int64_t rank) { return concat(kLocalityRankPrefix, rank); }

std::optional<std::int64_t> rank_of_directory(std::string_view name) {
  const std::string_view prefix = kLocalityRankPrefix;
  if (!name.starts_with(prefix) || name.size() == prefix.size()) return std::nullopt;
  std::int64_t rank = 0;
  const char* end = name.data() + name.size();
  const auto [stop, error] = std::from_chars(name.data() + prefix.size(), end, rank);
  if (error != std::errc() || stop != end || rank < 0) return std::nullopt;
  return rank;
}

StoredLocality read_stored_locality(const std::filesystem::path& directory) {
  StoredLocality stored;
  stored.single = read_locality_file(directory / kLocalityFileName);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const auto rank = rank_of_directory(entry.path().filename().string());
    if (!rank) continue;
    if (auto result = read_locality_file(entry.path() / kLocalityFileName))
      stored.ranks.push_back({*rank, std::move(*result)});
  }
  std::sort(stored.ranks.begin(), stored.ranks.end(),
            [](const RankLocality& a, const RankLocality& b) { return a.rank < b.rank; });
  return stored;
}

}  // namespace parperf::format
