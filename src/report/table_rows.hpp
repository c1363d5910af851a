// How long the overview's tables get before they are cut, and the one line that says what a cut
// left out and how to see it: every table of the text report is cut the same way, by the same
// option (parperf report --rows N|all), so a reader learns it once.
#pragma once

#include <cstddef>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>

namespace parperf::report {

struct TableRows {
  // Forty intervals fill a screen and still show a program's structure; the ranked tables
  // (SRC points, loops) matter most at their top, and so does a traffic matrix.
  std::size_t intervals = 40;
  std::size_t other_tables = 10;

  static TableRows each(std::size_t rows) { return {rows, rows}; }
  static TableRows all() { return each(std::numeric_limits<std::size_t>::max()); }
};

// "  … 12 more: parperf report --rows all lists every SRC point" (`what` = "SRC point"), with `hint`
// appended (", --level 2 ..."); nothing when nothing is hidden.
void render_more_rows(std::back_insert_iterator<std::string> out, std::size_t hidden, std::string_view what,
                      std::string_view hint = {});

}  // namespace parperf::report
