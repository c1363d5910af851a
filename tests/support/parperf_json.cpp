#include "support/parperf_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <limits>

#include "support/artifacts.hpp"
#include "support/process.hpp"

namespace parperf::test {

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    ADD_FAILURE() << "cannot open " << file;
    return nullptr;
  }
  auto json = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    ADD_FAILURE() << file << " is not valid JSON";
    return nullptr;
  }
  return json;
}

namespace {

// The output of `parperf <command> --json <options...> <run_directory>`.
nlohmann::json command_json(const char* command, const std::filesystem::path& run_directory,
                            const std::vector<std::string>& options) {
  std::vector<std::string> argv = {parperf_command().string(), command, "--json"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(run_directory.string());
  const auto result = run_process(argv);
  if (result.exit_code != 0) {
    ADD_FAILURE() << "parperf " << command << " --json " << run_directory << " failed: " << describe(result);
    return nullptr;
  }
  auto json = nlohmann::json::parse(result.out, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    ADD_FAILURE() << "parperf " << command << " --json printed no valid JSON:\n" << result.out;
    return nullptr;
  }
  return json;
}

}  // namespace

nlohmann::json report_json(const std::filesystem::path& run_directory,
                           const std::vector<std::string>& options) {
  return command_json("report", run_directory, options);
}

nlohmann::json whatif_json(const std::filesystem::path& run_directory,
                           const std::vector<std::string>& options) {
  return command_json("whatif", run_directory, options);
}

// The report's layout around the intervals is the report's business: search every object.
const nlohmann::json* find_interval(const nlohmann::json& report, std::string_view kind,
                                    std::string_view name) {
  // A report: its interval tree first, before any other object that names an interval (a finding's).
  if (report.is_object() && report.contains("intervals") && report.contains("parperf_report")) {
    if (const auto* found = find_interval(report["intervals"], kind, name)) return found;
  }
  if (report.is_object()) {
    const auto k = report.find("kind");
    const auto n = report.find("name");
    const auto text = [](const nlohmann::json& value) { return value.get_ref<const std::string&>(); };
    if (k != report.end() && k->is_string() && text(*k) == kind &&
        (name.empty() || (n != report.end() && n->is_string() && text(*n) == name))) {
      return &report;
    }
  }
  if (report.is_structured()) {
    for (const auto& child : report) {
      if (const auto* found = find_interval(child, kind, name)) return found;
    }
  }
  return nullptr;
}

double number(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) {
    ADD_FAILURE() << "no number '" << key << "' in " << object.dump().substr(0, 400);
    return std::numeric_limits<double>::quiet_NaN();
  }
  return object[key].get<double>();
}

const nlohmann::json& null_json() {
  static const nlohmann::json empty = nlohmann::json::object();
  return empty;
}

const nlohmann::json& field(const nlohmann::json& object, const std::string& key) {
  if (object.is_object() && object.contains(key)) return object[key];
  ADD_FAILURE() << "no '" << key << "' in " << object.dump().substr(0, 600);
  return null_json();
}

std::int64_t integer(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number_integer()) return kNotAnInteger;
  return object[key].get<std::int64_t>();
}

std::string text_of(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

std::string file_name_of(const nlohmann::json& path) {
  return path.is_string() ? std::filesystem::path(path.get<std::string>()).filename().string() : "";
}

}  // namespace parperf::test
