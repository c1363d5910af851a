// The rasteriser of libparperf-png.so (png_module_abi.h): SVG text to a PNG file with librsvg and
// cairo. Only this module links them; the `parperf` executable loads it when it draws a PNG.
#include "report/locality/svg_to_png.hpp"
#include "report/locality/png_module_abi.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <png.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace parperf::report {
namespace {

// Owners of the C objects, so that every path out (the throws included) frees them.
struct GObjectUnref {
  void operator()(RsvgHandle* handle) const { g_object_unref(handle); }
};
struct GErrorFree {
  void operator()(GError* error) const { g_error_free(error); }
};
struct CairoSurfaceDestroy {
  void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
struct CairoDestroy {
  void operator()(cairo_t* cairo) const { cairo_destroy(cairo); }
};
using Handle = std::unique_ptr<RsvgHandle, GObjectUnref>;
using Error = std::unique_ptr<GError, GErrorFree>;
using Surface = std::unique_ptr<cairo_surface_t, CairoSurfaceDestroy>;
using Cairo = std::unique_ptr<cairo_t, CairoDestroy>;

// For a document that gives neither a size nor a viewBox.
constexpr double kDefaultWidth = 800;
constexpr double kDefaultHeight = 600;
// cairo's largest image side; checked before converting to int, which is undefined beyond it.
constexpr double kMaxSide = 32767;

struct PictureSize {
  double width;
  double height;
};

// The document's width/height in pixels when they are absolute lengths, else its viewBox's size.
PictureSize picture_size(RsvgHandle* handle) {
  PictureSize size{0, 0};
  if (rsvg_handle_get_intrinsic_size_in_pixels(handle, &size.width, &size.height) && size.width > 0 &&
      size.height > 0)
    return size;
  gboolean has_viewbox = FALSE;
  RsvgRectangle viewbox{};
  rsvg_handle_get_intrinsic_dimensions(handle, nullptr, nullptr, nullptr, nullptr, &has_viewbox, &viewbox);
  if (has_viewbox && viewbox.width > 0 && viewbox.height > 0) return {viewbox.width, viewbox.height};
  return {kDefaultWidth, kDefaultHeight};
}

// libpng's write callback: appends to the std::string the write's io pointer holds. No exception may
// cross libpng's C: an allocation that fails ends the write through png_error.
void append_to_string(png_structp png, png_bytep data, png_size_t length) {
  try {
    static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), length);
  } catch (const std::bad_alloc&) {
    png_error(png, "out of memory");
  }
}
void flush_nothing(png_structp) {}

// libpng reports errors by longjmp: the message is kept for the exception thrown once back in C++.
void keep_error(png_structp png, png_const_charp message) {
  auto* kept = static_cast<char*>(png_get_error_ptr(png));
  std::snprintf(kept, 256, "%s", message);
  png_longjmp(png, 1);
}
void ignore_warning(png_structp, png_const_charp) {}

// Rows of 8-bit RGB from cairo's ARGB32 (native-endian 32-bit pixels, premultiplied: the picture is
// drawn on opaque white, so every alpha is 255 and the colours are as drawn).
void to_rgb(const unsigned char* argb, int width, png_bytep rgb) {
  for (int x = 0; x < width; ++x) {
    std::uint32_t pixel;
    std::memcpy(&pixel, argb + 4 * x, sizeof pixel);
    rgb[3 * x] = static_cast<png_byte>(pixel >> 16);
    rgb[3 * x + 1] = static_cast<png_byte>(pixel >> 8);
    rgb[3 * x + 2] = static_cast<png_byte>(pixel);
  }
}

// Encodes the opaque image as an RGB PNG into `out`; false with `error` set when libpng fails. The
// encoding favours speed: zlib's level 3 and the Sub filter on every row, where cairo's own writer
// (default level, every filter tried on each row) took two thirds of a `parperf locality` run's fixed
// cost for three pictures, whose files were up to a third smaller. Only plain data lives in this frame:
// libpng's longjmp must skip no destructor.
bool encode_png(const unsigned char* argb, int width, int height, int stride, png_bytep row, std::string* out,
                char* error) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, error, keep_error, ignore_warning);
  if (!png) {
    std::snprintf(error, 256, "libpng cannot start");
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : nullptr);
    if (!info) std::snprintf(error, 256, "libpng cannot start");
    return false;
  }
  png_set_write_fn(png, out, append_to_string, flush_nothing);
  png_set_compression_level(png, 3);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y) {
    to_rgb(argb + static_cast<std::ptrdiff_t>(y) * stride, width, row);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}

// The PNG file's bytes; a std::runtime_error with the cause when the SVG cannot be drawn.
std::string render_png(std::string_view svg) {
  GError* raw_error = nullptr;
  const Handle handle(
      rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &raw_error));
  Error error(raw_error);
  if (!handle)
    throw std::runtime_error(
        fmt::format("the SVG cannot be read: {}", error ? error->message : "unknown librsvg error"));

  const PictureSize size = picture_size(handle.get());
  const double scaled_width = std::ceil(size.width * kPngScale);
  const double scaled_height = std::ceil(size.height * kPngScale);
  if (!(scaled_width <= kMaxSide && scaled_height <= kMaxSide))  // NaN fails too
    throw std::runtime_error(fmt::format("the SVG is too large: {}x{} pixels", size.width, size.height));
  const int width = static_cast<int>(scaled_width);
  const int height = static_cast<int>(scaled_height);
  const Surface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height));
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)  // e.g. out of memory
    throw std::runtime_error(fmt::format("cannot make a {}x{} image: {}", width, height,
                                         cairo_status_to_string(cairo_surface_status(surface.get()))));
  const Cairo cairo(cairo_create(surface.get()));
  cairo_set_source_rgb(cairo.get(), 1, 1, 1);
  cairo_paint(cairo.get());
  cairo_scale(cairo.get(), kPngScale, kPngScale);
  const RsvgRectangle viewport{0, 0, size.width, size.height};
  if (!rsvg_handle_render_document(handle.get(), cairo.get(), &viewport, &raw_error)) {
    error.reset(raw_error);
    throw std::runtime_error(
        fmt::format("the SVG cannot be drawn: {}", error ? error->message : "unknown librsvg error"));
  }

  cairo_surface_flush(surface.get());
  std::string png;
  std::vector<png_byte> row(static_cast<std::size_t>(width) * 3);
  char error_text[256] = "";
  if (!encode_png(cairo_image_surface_get_data(surface.get()), width, height,
                  cairo_image_surface_get_stride(surface.get()), row.data(), &png, error_text))
    throw std::runtime_error(fmt::format("cannot encode the PNG: {}", error_text));
  return png;
}

// Writes `svg` to the file `png`; throws std::runtime_error "cannot write <png>: <cause>".
void write_png_file(std::string_view svg, const std::filesystem::path& png) {
  std::string bytes;
  try {
    bytes = render_png(svg);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("cannot write {}: {}", png.string(), e.what()));
  }
  // Written here rather than by cairo_surface_write_to_png, whose error says only "error while
  // writing to output stream": errno names the cause, as for the SVG and JSON files.
  std::ofstream out(png, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}: {}", png.string(), std::strerror(errno)));
}

void copy_message(std::string_view message, char* error, std::size_t error_size) {
  if (error == nullptr || error_size == 0) return;
  const std::size_t length = std::min(message.size(), error_size - 1);
  std::memcpy(error, message.data(), length);
  error[length] = '\0';
}

}  // namespace
}  // namespace parperf::report

extern "C" __attribute__((visibility("default"))) int parperf_png_write(const char* svg, size_t svg_size,
                                                                        const char* png_path, char* error,
                                                                        size_t error_size) {
  static_assert(std::is_same_v<decltype(&parperf_png_write), parperf_png_write_function>);
  try {
    parperf::report::write_png_file(std::string_view(svg, svg_size), png_path);
    return 0;
  } catch (const std::exception& e) {
    parperf::report::copy_message(e.what(), error, error_size);
  } catch (...) {
    parperf::report::copy_message(fmt::format("cannot write {}: unknown error", png_path), error, error_size);
  }
  return 1;
}
