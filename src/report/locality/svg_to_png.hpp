// PNG copies of the locality pictures, for viewers and documents that take no SVG: the SVG text of
// locality_svg.hpp rasterised with librsvg and cairo. They live in the module libparperf-png.so
// (png_module_abi.h), loaded the first time a PNG is drawn, so that no other command loads them.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string_view>

namespace parperf::report {

// Device pixels per SVG pixel: at 1 the 10-11 px axis labels blur, at 2 they stay legible.
inline constexpr double kPngScale = 2.0;

// The PNG module cannot be loaded (not built, not installed next to the executable, or damaged):
// no PNG can be drawn in this process, while the SVG pictures can.
class PngModuleUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where the module is looked for: libparperf-png.so in the libdir beside this executable's directory
// (format/installed_layout.hpp: the install libdir, or build/lib), where the runtime libraries sit too.
std::filesystem::path png_module_path();

// Writes `svg` (a whole SVG document) to the file `png` as a PNG kPngScale times its size, on white
// (what shows through where an SVG draws nothing; some viewers show transparency as black). The size
// is the document's width/height in pixels, else its viewBox's, else 800x600. Throws std::runtime_error
// "cannot write <png>: <cause>" when the SVG cannot be parsed or rendered, or the file cannot be written;
// PngModuleUnavailable "cannot load the PNG module <path>: <cause>" when the module is missing.
void write_png(std::string_view svg, const std::filesystem::path& png);

}  // namespace parperf::report
