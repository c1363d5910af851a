#include "support/source_markers.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace parperf::test {

std::map<std::string, std::int64_t> source_markers(const std::filesystem::path& source) {
  std::map<std::string, std::int64_t> lines;
  std::ifstream in(source);
  EXPECT_TRUE(in) << "cannot read " << source;
  std::string line;
  for (std::int64_t number = 1; std::getline(in, line); ++number) {
    const std::size_t at = line.find("SITE:");
    if (at == std::string::npos || line.find("SITE:<") != std::string::npos)
      continue;  // "SITE:<name>" in prose
    const std::size_t end = line.find_first_of(" */\t", at);
    const std::string marker =
        line.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5);
    EXPECT_FALSE(lines.contains(marker)) << source.filename().string() << ": SITE:" << marker << " on lines "
                                         << lines[marker] << " and " << number;
    const std::string rest = end == std::string::npos ? "" : line.substr(end);
    EXPECT_TRUE(rest.empty() || rest == " */")
        << source.filename().string() << ":" << number << ": the marker must end the line";
    lines[marker] = number;
  }
  return lines;
}

std::int64_t marker_line(const std::filesystem::path& source, const std::string& name) {
  std::ifstream in(source);
  std::string text;
  const std::string marker = "SITE:" + name;
  for (std::int64_t line = 1; std::getline(in, text); ++line) {
    const std::size_t at = text.find(marker);
    const std::size_t after = at + marker.size();
    if (at != std::string::npos && (after == text.size() || text[after] == ' ')) return line;
  }
  ADD_FAILURE() << "no marker " << marker << " in " << source;
  return -1;
}

}  // namespace parperf::test
