#include "report/svg_document.hpp"

#include <cstdint>
#include <iterator>

#include <fmt/format.h>

#include "format/utf8_text.hpp"

namespace parperf::report {
namespace {

std::string_view anchor_name(TextAnchor anchor) {
  switch (anchor) {
    case TextAnchor::middle:
      return "middle";
    case TextAnchor::end:
      return "end";
    default:
      return "start";
  }
}

// Two decimals: a hundredth of a pixel is below what any viewer shows, and it keeps files small.
std::string num(double value) {
  std::string s = fmt::format("{:.2f}", value);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string class_attribute(std::string_view css_class) {
  return css_class.empty() ? std::string() : fmt::format(" class=\"{}\"", xml_escape(css_class));
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = format::utf8_sequence_length(text, i);
      if (length == 0) {
        out += format::kReplacementCharacter;
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F)
          out += format::kReplacementCharacter;
        else
          out += static_cast<char>(c);
    }
    ++i;
  }
  return out;
}

SvgDocument::SvgDocument(double width, double height, std::string_view title, std::string_view style) {
  fmt::format_to(
      std::back_inserter(out_),
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<title>{2}</title>\n<style>{3}</style>\n"
      "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      num(width), num(height), xml_escape(title), style);
}

void SvgDocument::close_element(std::string_view element, std::string_view tooltip) {
  if (tooltip.empty())
    out_ += "/>\n";
  else
    fmt::format_to(std::back_inserter(out_), "><title>{}</title></{}>\n", xml_escape(tooltip), element);
}

void SvgDocument::line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  fmt::format_to(std::back_inserter(out_), "<line{} x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n",
                 class_attribute(css_class), num(x1), num(y1), num(x2), num(y2));
}

void SvgDocument::rect(double x, double y, double width, double height, std::string_view css_class,
                       std::string_view tooltip) {
  fmt::format_to(std::back_inserter(out_), "<rect{} x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
                 class_attribute(css_class), num(x), num(y), num(width), num(height));
  close_element("rect", tooltip);
}

void SvgDocument::circle(double cx, double cy, double r, std::string_view css_class,
                         std::string_view tooltip) {
  fmt::format_to(std::back_inserter(out_), "<circle{} cx=\"{}\" cy=\"{}\" r=\"{}\"",
                 class_attribute(css_class), num(cx), num(cy), num(r));
  close_element("circle", tooltip);
}

void SvgDocument::polygon(std::string_view points, std::string_view css_class, std::string_view tooltip) {
  fmt::format_to(std::back_inserter(out_), "<polygon{} points=\"{}\"", class_attribute(css_class),
                 xml_escape(points));
  close_element("polygon", tooltip);
}

void SvgDocument::polyline(std::string_view points, std::string_view css_class, std::string_view tooltip) {
  fmt::format_to(std::back_inserter(out_), "<polyline{} points=\"{}\"", class_attribute(css_class),
                 xml_escape(points));
  close_element("polyline", tooltip);
}

void SvgDocument::text(double x, double y, std::string_view text, std::string_view css_class,
                       TextAnchor anchor, double rotate) {
  const std::string transform =
      rotate == 0 ? std::string()
                  : fmt::format(" transform=\"rotate({} {} {})\"", num(rotate), num(x), num(y));
  fmt::format_to(std::back_inserter(out_), "<text x=\"{}\" y=\"{}\"{} text-anchor=\"{}\"{}>{}</text>\n",
                 num(x), num(y), class_attribute(css_class), anchor_name(anchor), transform,
                 xml_escape(text));
}

void SvgDocument::text_markup(double x, double y, std::string_view markup, std::string_view css_class,
                              TextAnchor anchor) {
  fmt::format_to(std::back_inserter(out_), "<text x=\"{}\" y=\"{}\"{} text-anchor=\"{}\">{}</text>\n", num(x),
                 num(y), class_attribute(css_class), anchor_name(anchor), markup);
}

void SvgDocument::begin_group(std::string_view css_class) {
  fmt::format_to(std::back_inserter(out_), "<g{}>\n", class_attribute(css_class));
}

void SvgDocument::end_group() { out_ += "</g>\n"; }

std::string SvgDocument::finish() && {
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace parperf::report
