// Loop balance in the text protocol (analysis/loop_balance.hpp): an interval's "loop balance"
// block, the run's list of loops innermost first, and the unbalanced-loop finding in words.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "analysis/findings.hpp"
#include "analysis/loop_balance.hpp"
#include "report/text_style.hpp"

namespace parperf::report {

// "--- loop balance (iterations) ---" and its lines: n, mean, min-max, D and D/T_mean against α,
// standard deviation and percentiles, the processors' shares, the branches.
void render_loop_balance(std::back_insert_iterator<std::string> out, const analysis::LoopBalance& loop);

// "== LOOP BALANCE, innermost loops first": one line per loop, the first `max_rows` (table_rows.hpp);
// nothing without loops.
void render_loop_list(std::back_insert_iterator<std::string> out,
                      const std::vector<analysis::LoopBalance>& loops, const TextStyle& style,
                      std::size_t max_rows);

// An unbalanced_loop finding as a sentence: "iterations of the sequential loop "rows" at f.c:40 take
// 1.00 ms to 20.0 ms (D = 9.50 ms, 0.90 of the mean 10.5 ms; balanced: D <= 0.1 x mean); ...".
std::string unbalanced_loop_text(const analysis::Finding& finding);

}  // namespace parperf::report
