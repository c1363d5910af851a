// The PNG copies of the locality pictures (svg_to_png.hpp): a real picture becomes a PNG twice its
// SVG size with something drawn on it, documents without a size fall back to their viewBox or the
// default, and a bad SVG or an unwritable file is an error naming the file, not a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>
#include <png.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/locality/locality_analyzer.hpp"
#include "report/locality/locality_svg.hpp"
#include "report/locality/svg_to_png.hpp"

// LeakSanitizer (the ASan build of scripts/test.sh): librsvg finds fonts through pango and
// fontconfig, and fontconfig's font list and caches live until the process ends (only FcFini,
// which nothing may call while pango holds them, would free them). Leaks of our objects (a handle,
// GError or surface not freed) are still reported: locality_report.cmake runs this test with
// G_SLICE=always-malloc, so that glib allocates them where LeakSanitizer sees them. Default
// visibility: the sanitizer runtime looks the hook up dynamically; the build hides symbols.
extern "C" __attribute__((visibility("default"))) const char* __lsan_default_suppressions() {
  return "leak:libfontconfig.so\n";
}

namespace parperf::report {
namespace {

using format::LocalityResult;

constexpr std::string_view kPngSignature = "\x89PNG\r\n\x1a\n";

// A file name under GoogleTest's temporary directory, unique to the test and the process (builds
// may run this binary at once); removed when the test ends.
class ScratchPng {
 public:
  explicit ScratchPng(const std::string& name) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            (std::string(info->name()) + "." + std::to_string(getpid()) + "." + name + ".png");
  }
  ~ScratchPng() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  ScratchPng(const ScratchPng&) = delete;
  ScratchPng& operator=(const ScratchPng&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t big_endian_u32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

struct ImageSize {
  std::uint32_t width;
  std::uint32_t height;
};

// The width and height of the IHDR chunk, which a PNG file must begin with after its signature.
ImageSize png_size(std::string_view png) {
  EXPECT_GE(png.size(), 24u);
  EXPECT_TRUE(png.starts_with(kPngSignature));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  if (png.size() < 24) return {0, 0};
  return {big_endian_u32(png, 16), big_endian_u32(png, 20)};
}

// The number in attribute `name`="..." of the <svg> element.
double svg_attribute(const std::string& svg, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = svg.find(key);
  EXPECT_NE(at, std::string::npos) << name;
  return at == std::string::npos ? 0 : std::stod(svg.substr(at + key.size()));
}

// A small result of the real engine: one function sweeping 2000 words with loads, then with stores.
LocalityResult small_result() {
  locality::LocalityAnalyzer analyzer;
  for (const bool store : {false, true})
    for (std::uint64_t w = 0; w < 2000; ++w) analyzer.add({0x10000000 + w * 8, 1, 0, 8, store});
  LocalityResult result;
  result.report = analyzer.finish();
  result.functions[1] = {"sweep", "/src/sweep.c", 12, "app"};
  result.source = "parperf-mem";
  result.command_line = "./app";
  return result;
}

TEST(locality_report_png, PicturesBecomeDrawnPngsAtTwiceTheirSize) {
  const LocalityResult result = small_result();
  for (const auto& [name, svg] : {std::pair<std::string, std::string>{"scatter", scatter_svg(result)},
                                  {"reuse", reuse_histogram_svg(result)},
                                  {"square", locality_square_svg(result)}}) {
    SCOPED_TRACE(name);
    const double width = svg_attribute(svg, "width");
    const double height = svg_attribute(svg, "height");
    const ScratchPng picture(name), blank(name + "-blank");
    write_png(svg, picture.path());
    // A white page of the same size: what the PNG would be if nothing were drawn.
    write_png(fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\"></svg>",
                          width, height),
              blank.path());

    const std::string png = read_file(picture.path());
    const ImageSize size = png_size(png);
    EXPECT_EQ(size.width, static_cast<std::uint32_t>(width * kPngScale));
    EXPECT_EQ(size.height, static_cast<std::uint32_t>(height * kPngScale));
    const std::string blank_png = read_file(blank.path());
    EXPECT_EQ(png_size(blank_png).width, size.width);
    // Axes, labels and points compress far worse than a uniform page.
    EXPECT_GT(png.size(), 4 * blank_png.size()) << png.size() << " bytes, blank " << blank_png.size();
  }
}

// The file decoded by libpng (another reader than the writer's code path) as 8-bit RGB rows.
std::vector<png_byte> decoded_rgb(const std::string& png, png_uint_32& width, png_uint_32& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
    ADD_FAILURE() << "libpng cannot read the file: " << image.message;
    return {};
  }
  image.format = PNG_FORMAT_RGB;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) {
    ADD_FAILURE() << "libpng cannot decode the file: " << image.message;
    return {};
  }
  width = image.width;
  height = image.height;
  return pixels;
}

TEST(locality_report_png, ColoursComeOutAsDrawnOnWhite) {
  // The left half red, the right half blue over a page left white: a swap of the red and blue
  // channels (cairo keeps pixels as native-endian ARGB words) or a transparent page would show.
  const ScratchPng picture("colours");
  write_png(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\">"
      "<rect x=\"0\" y=\"0\" width=\"10\" height=\"20\" fill=\"#ff0000\"/>"
      "<rect x=\"20\" y=\"0\" width=\"10\" height=\"20\" fill=\"#0000ff\"/></svg>",
      picture.path());
  png_uint_32 width = 0, height = 0;
  const std::vector<png_byte> rgb = decoded_rgb(read_file(picture.path()), width, height);
  ASSERT_EQ(width, 40u * kPngScale);
  ASSERT_EQ(height, 20u * kPngScale);
  const auto pixel = [&](double x, double y) {  // at SVG coordinates
    const std::size_t at =
        3 * (static_cast<std::size_t>(y * kPngScale) * width + static_cast<std::size_t>(x * kPngScale));
    return fmt::format("{},{},{}", rgb[at], rgb[at + 1], rgb[at + 2]);
  };
  EXPECT_EQ(pixel(5, 10), "255,0,0") << "inside the red rectangle";
  EXPECT_EQ(pixel(15, 10), "255,255,255") << "the page between the rectangles";
  EXPECT_EQ(pixel(25, 10), "0,0,255") << "inside the blue rectangle";
  EXPECT_EQ(pixel(35, 10), "255,255,255") << "the page right of them";
}

TEST(locality_report_png, SizeFallsBackToTheViewBoxThenTheDefault) {
  const ScratchPng with_viewbox("viewbox"), without_size("nosize");
  write_png("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 300 100\"><circle r=\"5\"/></svg>",
            with_viewbox.path());
  write_png("<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"5\"/></svg>", without_size.path());
  const ImageSize from_viewbox = png_size(read_file(with_viewbox.path()));
  EXPECT_EQ(from_viewbox.width, 600u);
  EXPECT_EQ(from_viewbox.height, 200u);
  const ImageSize by_default = png_size(read_file(without_size.path()));
  EXPECT_EQ(by_default.width, 1600u);
  EXPECT_EQ(by_default.height, 1200u);
}

// The message names the file and the cause; nothing is left behind.
void expect_error_naming_the_file(std::string_view svg, const std::filesystem::path& png,
                                  std::string_view cause) {
  try {
    write_png(svg, png);
    ADD_FAILURE() << "no error for " << svg;
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("cannot write " + png.string() + ": ")) << message;
    EXPECT_NE(message.find(cause), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(png));
}

TEST(locality_report_png, InvalidSvgIsAnErrorNamingTheFile) {
  const ScratchPng png("invalid");
  expect_error_naming_the_file("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"", png.path(),
                               "the SVG cannot be read");
  expect_error_naming_the_file("not an SVG at all", png.path(), "the SVG cannot be read");
  expect_error_naming_the_file("", png.path(), "the SVG cannot be read");
  // Larger than cairo can allocate: refused before any pixel is.
  expect_error_naming_the_file("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1e9\" height=\"10\"/>",
                               png.path(), "too large");
}

TEST(locality_report_png, UnwritableFileIsAnErrorNamingTheFile) {
  const auto png = std::filesystem::path(::testing::TempDir()) / "parperf-no-such-directory" / "a.png";
  expect_error_naming_the_file(locality_square_svg(small_result()), png, "No such file or directory");
}

}  // namespace
}  // namespace parperf::report
