// A minimal writer of self-contained SVG documents: the few elements the pictures draw (locality, speedup),
// with every text escaped, so that the pictures need no library and are always well-formed XML.
#pragma once

#include <string>
#include <string_view>

namespace parperf::report {

// Text for XML content and attribute values: & < > " ' escaped; bytes that are not valid UTF-8,
// and control characters XML 1.0 forbids, become U+FFFD (names come from the measured program).
std::string xml_escape(std::string_view text);

enum class TextAnchor { start, middle, end };

class SvgDocument {
 public:
  // Opens <svg> with its size and a <title>; `style` is the CSS of a <style> element (classes the
  // drawing uses), kept inside so that the file stands alone.
  SvgDocument(double width, double height, std::string_view title, std::string_view style);

  // Elements; `css_class` may be empty. `tooltip` (escaped) becomes a <title> child, shown on hover.
  void line(double x1, double y1, double x2, double y2, std::string_view css_class);
  void rect(double x, double y, double width, double height, std::string_view css_class,
            std::string_view tooltip = {});
  void circle(double cx, double cy, double r, std::string_view css_class = {}, std::string_view tooltip = {});
  // A closed polygon through the points "x,y x,y ...".
  void polygon(std::string_view points, std::string_view css_class, std::string_view tooltip = {});
  // An open line through the points "x,y x,y ..." (a curve of a plot).
  void polyline(std::string_view points, std::string_view css_class, std::string_view tooltip = {});
  // `text` is escaped. `rotate` turns it about (x, y) in degrees (axis titles).
  void text(double x, double y, std::string_view text, std::string_view css_class = {},
            TextAnchor anchor = TextAnchor::start, double rotate = 0);
  // Markup written as is: the caller escapes (used for <tspan> superscripts).
  void text_markup(double x, double y, std::string_view markup, std::string_view css_class,
                   TextAnchor anchor);
  // Groups: elements between begin_group and end_group take the group's class (one fill for
  // thousands of points instead of one attribute each).
  void begin_group(std::string_view css_class);
  void end_group();

  // The document, closed: it starts with "<svg" and ends with "</svg>\n".
  std::string finish() &&;

 private:
  // "/>" or the tooltip and the closing tag.
  void close_element(std::string_view element, std::string_view tooltip);
  std::string out_;
};

}  // namespace parperf::report
