// locality.json, the result `parperf locality` leaves in a run directory (DESIGN.md section 6), and
// the per-rank subdirectories of an MPI job: the typed, versioned writer and reader.
//
// {"format": "parperf-locality", "version": 1, "source", "command_line", "dropped",
//  "options": {"word_bytes", "window", "max_stride", "log2_n", "sample_rate", "presampled_rate",
//              "effective_sample_rate", and for bursts "burst_length", "mean_gap", "burst_warmup",
//              "bursts"},
//  "program": {<scores>},
//  "uncertainty": {"confidence": 0.95, "spatial_locality", "temporal_locality"}  for bursts only:
//              the 95 % half widths of the program's scores (null when unknown),
//  "functions": [{"id", "function", "file", "line", "module", <scores>}...]  most word accesses first,
//  "threads": [{"thread", <scores>}...]  by thread index,
//  "warnings": ["..."]}
// <scores> = "spatial_locality", "temporal_locality", "loads", "stores" (accesses), "load_words",
// "store_words", "word_accesses", "footprint_words", "cold", "stride_histogram" (the strides array
// as the engine keeps it: [same word, stride 1, ..., stride max_stride, longer or none]) and
// "reuse_histogram": [{"bin", "min_distance", "max_distance", "count"}] for the non-empty bins only.
// "presampled_rate" (the capturer's word sampling, 1 when it recorded everything), the burst keys and
// "uncertainty" may be absent on reading (version 1 files written before bursts). Unknown function fields are
// "" (line 0). The scatter sample and the engine-internal options (min_tree_capacity, scatter_points) are not
// stored; reading gives their defaults.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "format/locality_result.hpp"

namespace parperf::format {

inline constexpr std::string_view kLocalityFileFormat = "parperf-locality";
inline constexpr int kLocalityFileVersion = 1;

// The document, keys in the order above (ordered_json), so that it reads like the text report.
nlohmann::ordered_json locality_file_json(const LocalityResult& result);

// locality_file_json as indented text ending in a newline: the file's content. Names come from the
// measured program and need not be valid UTF-8: invalid bytes become U+FFFD rather than failing.
std::string locality_file_text(const LocalityResult& result);

// Writes `result` to `path`. Throws std::runtime_error "cannot write <path>: <cause>".
void write_locality_file(const std::filesystem::path& path, const LocalityResult& result);

// The result locality_file_json wrote (without the scatter sample). Throws std::runtime_error
// "<name>: not a parperf locality result: <what>" for anything else: another format, another
// version, a missing key, a value of the wrong type or out of range.
LocalityResult locality_from_json(const nlohmann::json& input, std::string_view name);

// The result in the file `path`; nothing when there is no such file. Only a regular file is read (a
// FIFO would block the reader, a device never end). Throws FileError for a file that cannot be read,
// std::runtime_error "<path>: not valid JSON: ..." and locality_from_json's errors naming `path`.
std::optional<LocalityResult> read_locality_file(const std::filesystem::path& path);

// "locality-rank-<rank>", the subdirectory of the run directory that holds one rank's result, and
// back: the rank a subdirectory name stands for, nothing for any other name.
std::string rank_directory_name(std::int64_t rank);
std::optional<std::int64_t> rank_of_directory(std::string_view name);

struct RankLocality {
  std::int64_t rank = 0;
  LocalityResult result;
};

// What `parperf locality` stored in a run directory: one result, or one per rank of an MPI job.
struct StoredLocality {
  std::optional<LocalityResult> single;
  std::vector<RankLocality> ranks;  // by rank
  bool empty() const { return !single && ranks.empty(); }
};

// The results in `directory`. A rank that ended before writing its result (killed, crashed in
// parperf) is left out: the others are still worth comparing.
StoredLocality read_stored_locality(const std::filesystem::path& directory);

}  // namespace parperf::format
