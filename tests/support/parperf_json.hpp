// The JSON that parperf writes (run.json, `parperf report --json`), read back by tests. Problems are
// reported as test failures (ADD_FAILURE) and give a null value, so a test reads on to its checks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace parperf::test {

nlohmann::json read_json_file(const std::filesystem::path& file);

// The output of `parperf report --json <run_directory> <options...>`.
nlohmann::json report_json(const std::filesystem::path& run_directory,
                           const std::vector<std::string>& options = {});

// The output of `parperf whatif --json <options...> <run_directory>`.
nlohmann::json whatif_json(const std::filesystem::path& run_directory,
                           const std::vector<std::string>& options = {});

// The first interval, depth first, with this kind and (unless empty) this name; nullptr when none.
const nlohmann::json* find_interval(const nlohmann::json& report, std::string_view kind,
                                    std::string_view name = {});

// `object[key]` as a number, or NaN (after a test failure naming the key) when it is not one.
double number(const nlohmann::json& object, const std::string& key);

// What a lookup that failed gives: an empty object, whose lookups read as missing in turn.
const nlohmann::json& null_json();

// `object[key]` when it is there, else null_json() (after a failure naming the key), whose
// lookups read as missing in turn.
const nlohmann::json& field(const nlohmann::json& object, const std::string& key);

// `object[key]` as an integer, or kNotAnInteger when it is missing, null or not an integer (no
// failure of its own: the comparison that uses it fails).
inline constexpr std::int64_t kNotAnInteger = -999999;
std::int64_t integer(const nlohmann::json& object, const std::string& key);

// `object[key]` as a string, or "" when it is missing or not a string.
std::string text_of(const nlohmann::json& object, const std::string& key);

// The file name of a path the report gives ("/src/late_sender.c" -> "late_sender.c"); "" when the
// value is not a string.
std::string file_name_of(const nlohmann::json& path);

}  // namespace parperf::test
