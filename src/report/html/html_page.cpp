#include "report/html/html_page.hpp"

#include "report/html/script_json.hpp"

namespace parperf::report::html {

// The assets, embedded by cmake/embed_text.cmake (html_assets.cpp in the build tree).
extern const std::string_view kReportCss;
extern const std::string_view kReportJs;

std::string html_page(const nlohmann::ordered_json& data, std::string_view title) {
  std::string page;
  page.reserve(kReportCss.size() + kReportJs.size() + 4096);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"color-scheme\" content=\"light dark\">\n";
  // Nothing may be fetched: no network, no other file. Inline style and script only.
  page +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  page += "<title>";
  page += title;
  page += "</title>\n<style>\n";
  page += kReportCss;
  page += "</style>\n</head>\n<body>\n";
  page +=
      "<noscript><p>This parperf report draws itself with JavaScript: allow scripts for this file, or "
      "use parperf report (text) or parperf report --json.</p></noscript>\n";
  page += "<div id=\"app\"></div>\n<script type=\"application/json\" id=\"parperf-data\">";
  page += script_json(data);
  page += "</script>\n<script>\n";
  page += kReportJs;
  page += "</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace parperf::report::html
