#include "report/locality/locality_functions.hpp"

#include <string_view>

#include <fmt/format.h>

#include "report/printable_text.hpp"

namespace parperf::report {

std::string function_label(const format::LocalityResult& result, std::uint32_t id) {
  const auto it = result.functions.find(id);
  if (it != result.functions.end() && !it->second.name.empty()) return printable(it->second.name);
  return fmt::format("function #{}", id);
}

std::string function_location(const format::LocalityResult& result, std::uint32_t id) {
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
