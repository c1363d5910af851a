// Colour and emphasis in the text report. The renderers ask for a role ("a heading", "an
// efficiency of 42%"), never for an escape sequence, so a report without colour is the same text
// minus the escapes. Whether to colour is the command's decision (a terminal, NO_COLOR, --color):
// the report layer never looks at where its text goes.
#pragma once

#include <string>
#include <string_view>

namespace parperf::report {

class TextStyle {
 public:
  explicit TextStyle(bool colour = false) : colour_(colour) {}

  std::string heading(std::string_view text) const;  // bold
  std::string source(std::string_view text) const;   // dim: file:line beside the figures
  std::string alarm(std::string_view text) const;    // red: OPEN, a crash
  // `text` (an efficiency already formatted and padded) in red below 50%, in yellow below 80%.
  std::string efficiency(std::string_view text, double efficiency) const;

 private:
  std::string wrap(std::string_view code, std::string_view text) const;
  bool colour_;
};

}  // namespace parperf::report
