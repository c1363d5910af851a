// Program-supplied text (interval, event and site names, file names, descriptions, command lines,
// and whatever a damaged file holds) as it may appear in a text report: a control character would
// act on the reader's terminal (ESC sequences, BEL, a carriage return that overwrites a line) or
// forge report lines (a newline). Every text renderer passes such strings through printable(); the
// JSON renderers need not (JSON escapes them itself).
#pragma once

#include <string>
#include <string_view>

namespace parperf::report {

// `text` with its control characters written as escapes: "\n", "\t", else "\xHH" (bytes below
// 0x20 and DEL). Everything else, UTF-8 included, is kept.
std::string printable(std::string_view text);

}  // namespace parperf::report
