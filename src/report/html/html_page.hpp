// The one self-contained HTML file of `parperf report --html` and `parperf diff --html`: the page's
// style and script (src/report/html/assets, embedded in the binary at build time) and its data (a
// JSON element, script_json.hpp) inlined, so that it opens offline, from a mail attachment as from
// a disk, and loads nothing from anywhere.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace parperf::report::html {

// `data` is the page's content (page_data.hpp for a report, the diff JSON for a comparison); its
// "page" key says which view the script draws. `title` is a fixed text of ours, not a program's.
std::string html_page(const nlohmann::ordered_json& data, std::string_view title);

}  // namespace parperf::report::html
