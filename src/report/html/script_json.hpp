// JSON that can sit inside an HTML <script type="application/json"> element: the page's data. A
// name from the measured program such as "</script><img src=x onerror=alert(1)>" must stay data:
// the HTML parser ends a script element at "</script" whatever the JSON says, so every '<', '>' and
// '&' is written as a \u escape (JSON.parse turns them back), and so are U+2028 and U+2029, which
// some script parsers take for line ends. The page reads the element's text with JSON.parse and
// puts names into the document only as text nodes, never as markup.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace parperf::report::html {

// `data` serialised for a script element; bytes that are not valid UTF-8 become U+FFFD.
std::string script_json(const nlohmann::ordered_json& data);

}  // namespace parperf::report::html
