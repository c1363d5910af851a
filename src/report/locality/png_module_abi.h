// The one entry point of libparperf-png.so, the module that turns the locality pictures into PNG
// files. The rasteriser needs librsvg and cairo, which pull in some fifty shared libraries (pango,
// fontconfig, X11, ...); linked into the `parperf` executable they made every command, `parperf run`
// included, pay for loading them. The module is loaded (dlopen) only when a PNG is drawn, so its
// interface is plain C: no exception or C++ type crosses it.
#pragma once

#include <stddef.h>

#define PARPERF_PNG_MODULE_FILE "libparperf-png.so"
#define PARPERF_PNG_WRITE_SYMBOL "parperf_png_write"

#ifdef __cplusplus
extern "C" {
#endif

// Rasterises the SVG document `svg` (`svg_size` bytes) into the PNG file `png_path` (see
// svg_to_png.hpp for the size and background). Returns 0 when the file is written; otherwise 1 and
// a NUL-terminated message naming the cause in `error` (at most `error_size` bytes).
typedef int (*parperf_png_write_function)(const char* svg, size_t svg_size, const char* png_path, char* error,
                                          size_t error_size);
int parperf_png_write(const char* svg, size_t svg_size, const char* png_path, char* error, size_t error_size);

#ifdef __cplusplus
}
#endif
