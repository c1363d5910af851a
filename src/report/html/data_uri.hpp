// An SVG document as a data: URI for an <img>: the page stays one file, and a picture shown as an
// image cannot run script or reach the page, whatever text it holds.
#pragma once

#include <string>
#include <string_view>

namespace parperf::report::html {

std::string base64(std::string_view bytes);
std::string svg_data_uri(std::string_view svg);  // "data:image/svg+xml;base64,..."

}  // namespace parperf::report::html
