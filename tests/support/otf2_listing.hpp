// A run's OTF2 export read back as its users read it: `parperf export DIR --otf2 DIR/otf2`, then
// OTF2's own otf2-print (the events, and with -A the definitions).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace parperf::test {

struct Otf2Listing {
  std::string events;
  std::string definitions;
  // Empty when the export and otf2-print went well; else what went wrong (an exit status, a warning
  // of otf2-print's about the archive), with their output.
  std::string problem;

  // The lines of the record `record` ("RMA_PUT") on rank `rank`'s locations, in the listing's order.
  std::vector<std::string> records(const std::string& record, std::int64_t rank) const;
  // Every line of the record `record`, on any location.
  std::vector<std::string> records(const std::string& record) const;
  // The definitions' lines of the kind `record` ("RMA_WIN").
  std::vector<std::string> defined(const std::string& record) const;
};

// Exports `run_directory` to `run_directory`/otf2 and lists the archive.
Otf2Listing export_otf2(const std::filesystem::path& run_directory);

// The number after `key` ("Remote: ") on `line`; -1 when the line has none.
long long number_after(const std::string& line, const std::string& key);

}  // namespace parperf::test
