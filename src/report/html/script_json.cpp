#include "report/html/script_json.hpp"

#include <string_view>

namespace parperf::report::html {

std::string script_json(const nlohmann::ordered_json& data) {
  const std::string text = data.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  constexpr std::string_view kLineSeparator = "\xE2\x80\xA8";
  constexpr std::string_view kParagraphSeparator = "\xE2\x80\xA9";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else if (text.compare(i, 3, kLineSeparator) == 0) {
      out += "\\u2028";
      i += 2;
    } else if (text.compare(i, 3, kParagraphSeparator) == 0) {
      out += "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace parperf::report::html
