// Whether a command's text goes out in colour: --color=always|never, or for auto a terminal that
// is not "dumb", unless NO_COLOR (https://no-color.org) is set. The report layer never asks; the
// command decides here and passes the answer down.
#pragma once

#include <string_view>

namespace parperf::cli {

inline constexpr std::string_view kColourModes[] = {"auto", "never", "always"};

// `mode` is one of kColourModes.
bool colour_output(std::string_view mode);

}  // namespace parperf::cli
