// PNG copies of the locality pictures, for viewers and documents that take no SVG: the SVG text of
// locality_svg.hpp rasterised with librsvg and cairo. Their headers (glib's too) stay in the .cpp.
#pragma once

#include <filesystem>
#include <string_view>

namespace parperf::report {

// Device pixels per SVG pixel: at 1 the 10-11 px axis labels blur, at 2 they stay legible.
inline constexpr double kPngScale = 2.0;

// Writes `svg` (a whole SVG document) to the file `png` as a PNG kPngScale times its size, on white
// (what shows through where an SVG draws nothing; some viewers show transparency as black). The size
// is the document's width/height in pixels, else its viewBox's, else 800x600. Throws std::runtime_error
// "cannot write <png>: <cause>" when the SVG cannot be parsed or rendered, or the file cannot be written.
void write_png(std::string_view svg, const std::filesystem::path& png);

}  // namespace parperf::report
