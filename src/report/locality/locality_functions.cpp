#include "report/locality/locality_functions.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "report/printable_text.hpp"

namespace parperf::report {

std::vector<std::uint32_t> functions_by_accesses(const locality::LocalityReport& report) {
  std::vector<std::uint32_t> ids;
  ids.reserve(report.functions.size());
  for (const auto& [id, scores] : report.functions) ids.push_back(id);
  // The map iterates ids in ascending order and stable_sort keeps it among equal counts.
  std::stable_sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) {
    return report.functions.at(a).histograms.word_accesses > report.functions.at(b).histograms.word_accesses;
  });
  return ids;
}

std::string function_label(const LocalityResult& result, std::uint32_t id) {
  const auto it = result.functions.find(id);
  if (it != result.functions.end() && !it->second.name.empty()) return printable(it->second.name);
  return fmt::format("function #{}", id);
}

std::string function_location(const LocalityResult& result, std::uint32_t id) {
  const auto it = result.functions.find(id);
  if (it == result.functions.end() || it->second.file.empty()) return {};
  // Full paths make tables unreadable; the JSON keeps the whole path.
  std::string_view file = it->second.file;
  if (const auto slash = file.find_last_of('/'); slash != std::string_view::npos && slash + 1 < file.size())
    file.remove_prefix(slash + 1);
  if (it->second.line == 0) return printable(file);
  return fmt::format("{}:{}", printable(file), it->second.line);
}

}  // namespace parperf::report
