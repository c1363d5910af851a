#include "report/locality/locality_format.hpp"

#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace parperf::report {
namespace {

// value / unit with three significant digits, moving to the next unit when rounding reaches 1000
// (so that 999,999 reads "1.00M", not "1000k").
std::string three_digits(double value, double base, const std::array<const char*, 7>& units,
                         const char* separator) {
  std::size_t unit = 0;
  while (unit + 1 < units.size() && value >= base * 0.9995) {
    value /= base;
    ++unit;
  }
  if (value < 9.995) return fmt::format("{:.2f}{}{}", value, separator, units[unit]);
  if (value < 99.95) return fmt::format("{:.1f}{}{}", value, separator, units[unit]);
  return fmt::format("{:.0f}{}{}", value, separator, units[unit]);
}

}  // namespace

std::string format_score(double score) { return fmt::format("{:.3f}", score); }

std::string format_exact_count(std::uint64_t count) {
  const std::string digits = std::to_string(count);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string format_count(std::uint64_t count) {
  if (count < 10'000) return std::to_string(count);
  return three_digits(static_cast<double>(count), 1000, {"", "k", "M", "G", "T", "P", "E"}, "");
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  return three_digits(static_cast<double>(bytes), 1024, {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}, " ");
}

std::string format_address(std::uint64_t address) { return fmt::format("{:#x}", address); }

std::string format_share(double fraction) {
  if (fraction <= 0) return "0%";
  if (fraction < 0.0005) return "<0.1%";
  return fmt::format("{:.1f}%", fraction * 100);
}

std::string power_of_two_label(unsigned exponent) {
  static constexpr std::array<const char*, 7> kSuffixes = {"", "K", "M", "G", "T", "P", "E"};
  const unsigned suffix = exponent / 10;
  return fmt::format("{}{}", std::uint64_t{1} << (exponent % 10), kSuffixes.at(suffix));
}

std::string reuse_bin_label(std::size_t bin) {
  if (bin == 0) return "0-1";
  return fmt::format("({}, {}]", power_of_two_label(static_cast<unsigned>(bin - 1)),
                     power_of_two_label(static_cast<unsigned>(bin)));
}

}  // namespace parperf::report
