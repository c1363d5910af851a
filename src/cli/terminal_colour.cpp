#include "cli/terminal_colour.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace parperf::cli {

bool colour_output(std::string_view mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* no_colour = std::getenv("NO_COLOR");
  if (no_colour != nullptr && *no_colour != '\0') return false;
  const char* term = std::getenv("TERM");
  if (term == nullptr || std::string_view(term) == "dumb") return false;
  return isatty(STDOUT_FILENO) == 1;
}

}  // namespace parperf::cli
