// The one-sided traffic matrix (analysis/one_sided_traffic.hpp) in the text protocol and the JSON
// report: which process wrote and read whose memory, in calls and bytes.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/one_sided_traffic.hpp"

namespace parperf::report {

// "--- one-sided traffic ---": one line per (origin, target) pair with calls, by operation, the
// first `max_rows` (table_rows.hpp); nothing when the run has no one-sided traffic.
void render_traffic(std::back_insert_iterator<std::string> out, const analysis::OneSidedTraffic& traffic,
                    std::size_t max_rows);

// {"processes": n, "cells": [{"origin", "target", "operation", "calls", "bytes"}, ...],
// "lost_origins": [processes whose row is unknown]}; null when the run has none.
nlohmann::ordered_json traffic_json(const analysis::OneSidedTraffic& traffic);

}  // namespace parperf::report
