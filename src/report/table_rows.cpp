#include "report/table_rows.hpp"

#include <fmt/format.h>

namespace parperf::report {

void render_more_rows(std::back_insert_iterator<std::string> out, std::size_t hidden, std::string_view what,
                      std::string_view hint) {
  if (hidden == 0) return;
  fmt::format_to(out, "  … {} more: parperf report --rows all lists every {}{}\n", hidden, what, hint);
}

}  // namespace parperf::report
