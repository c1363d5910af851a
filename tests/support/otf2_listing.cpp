#include "support/otf2_listing.hpp"

#include <functional>
#include <map>
#include <regex>
#include <sstream>

#include "support/artifacts.hpp"
#include "support/process.hpp"

namespace parperf::test {

namespace {

// The first field of each line, and the second (the location, for an event).
std::vector<std::string> lines_where(
    const std::string& listing, const std::function<bool(const std::string&, const std::string&)>& keep) {
  std::istringstream lines(listing);
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, second;
    if (fields >> name >> second && keep(name, second)) out.push_back(line);
  }
  return out;
}

}  // namespace

std::vector<std::string> Otf2Listing::records(const std::string& record, std::int64_t rank) const {
  // Locations are named "rank R thread T" (docs/trace.md).
  std::map<std::string, std::int64_t> rank_of;
  const std::regex location(R"(^LOCATION\s+(\d+)\s+Name: "rank (-?\d+) thread \d+")");
  for (const std::string& line : defined("LOCATION"))
    if (std::smatch m; std::regex_search(line, m, location)) rank_of[m[1]] = std::stoll(m[2]);
  return lines_where(events, [&](const std::string& name, const std::string& at) {
    const auto it = rank_of.find(at);
    return name == record && it != rank_of.end() && it->second == rank;
  });
}

std::vector<std::string> Otf2Listing::records(const std::string& record) const {
  return lines_where(events, [&](const std::string& name, const std::string&) { return name == record; });
}

std::vector<std::string> Otf2Listing::defined(const std::string& record) const {
  return lines_where(definitions,
                     [&](const std::string& name, const std::string&) { return name == record; });
}

Otf2Listing export_otf2(const std::filesystem::path& run_directory) {
  Otf2Listing listing;
  const std::filesystem::path archive = run_directory / "otf2";
  const ProcessResult exported =
      run_process({parperf_command().string(), "export", run_directory.string(), "--otf2", archive.string()});
  if (exported.exit_code != 0) {
    listing.problem = "parperf export --otf2 failed: " + exported.err;
    return listing;
  }
  const std::string anchor = (archive / "traces.otf2").string();
  const ProcessResult events = run_process({PARPERF_TEST_OTF2_PRINT, anchor});
  const ProcessResult definitions = run_process({PARPERF_TEST_OTF2_PRINT, "-A", "--silent", anchor});
  listing.events = events.out;
  listing.definitions = definitions.out;
  for (const ProcessResult* printed : {&events, &definitions})
    if (printed->exit_code != 0 || printed->err.find("warning") != std::string::npos)
      listing.problem += "otf2-print: " + printed->err + "\n";
  return listing;
}

long long number_after(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(key);
  if (at == std::string::npos) return -1;
  return std::stoll(line.substr(at + key.size()));
}

}  // namespace parperf::test
