// `parperf trace DIR`: the readable trace of a run directory (report/trace_listing.hpp).
#pragma once

namespace CLI {
class App;
}

namespace parperf::cli {

void add_trace_command(CLI::App& app);

}  // namespace parperf::cli
