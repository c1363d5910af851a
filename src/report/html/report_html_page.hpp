// `parperf report --html`: the page of one run from its computed parts (html_page_inputs.hpp): the
// profile's report (page_data.hpp) with the sections only a trace, a locality measurement or a sweep
// can add, each rendered by the renderer the text report uses.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/html/html_page_inputs.hpp"
#include "report/html/page_data.hpp"

namespace parperf::report::html {

// The page's JSON data (docs/report.md, "HTML"); for tests and for report_html_page.
nlohmann::ordered_json report_html_data(const HtmlPageInputs& inputs, const PageLimits& limits = {});

// The whole self-contained page.
std::string report_html_page(const HtmlPageInputs& inputs, const PageLimits& limits = {});

}  // namespace parperf::report::html
