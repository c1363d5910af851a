// The JSON that parperf writes (run.json, `parperf report --json`), read back by tests. Problems are
// reported as test failures (ADD_FAILURE) and give a null value, so a test reads on to its checks.
#pragma once

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

// The first interval, depth first, with this kind and (unless empty) this name; nullptr when none.
const nlohmann::json* find_interval(const nlohmann::json& report, std::string_view kind,
                                    std::string_view name = {});

// `object[key]` as a number, or NaN (after a test failure naming the key) when it is not one.
double number(const nlohmann::json& object, const std::string& key);

}  // namespace parperf::test
