#include "report/text_style.hpp"

namespace parperf::report {
namespace {

// SGR codes (ECMA-48); every styled span ends with a full reset, so spans never leak into the
// next column or line.
constexpr std::string_view kBold = "1";
constexpr std::string_view kDim = "2";
constexpr std::string_view kRed = "31";
constexpr std::string_view kYellow = "33";

// The thresholds of the overview's colours: below half the processor time is productive the
// interval is an alarm, below four fifths worth a look.
constexpr double kPoorEfficiency = 0.5;
constexpr double kFairEfficiency = 0.8;

}  // namespace

std::string TextStyle::wrap(std::string_view code, std::string_view text) const {
  std::string styled;
  if (!colour_ || text.empty()) {
    styled = text;
    return styled;
  }
  styled.reserve(text.size() + 12);
  styled += "\x1b[";
  styled += code;
  styled += 'm';
  styled += text;
  styled += "\x1b[0m";
  return styled;
}

std::string TextStyle::heading(std::string_view text) const { return wrap(kBold, text); }

std::string TextStyle::source(std::string_view text) const { return wrap(kDim, text); }

std::string TextStyle::alarm(std::string_view text) const { return wrap(kRed, text); }

std::string TextStyle::efficiency(std::string_view text, double efficiency) const {
  if (efficiency < kPoorEfficiency) return wrap(kRed, text);
  if (efficiency < kFairEfficiency) return wrap(kYellow, text);
  std::string plain(text);
  return plain;
}

}  // namespace parperf::report
