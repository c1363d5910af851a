// How locality reports write numbers: scores, counts, sizes, addresses, shares and the reuse-distance
// bins, shared by the text report and the SVG pictures so that both read the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace parperf::report {

// Scores in [0, 1] to three decimals: "0.999". Three are enough to tell stride 1 from stride 2
// (1 vs 0.5) and a sweep's TL of 0.049 from a random stream's 0.10.
std::string format_score(double score);

// Exact, grouped by thousands: 1234567 → "1,234,567".
std::string format_exact_count(std::uint64_t count);

// Three significant digits with an SI suffix from 10,000 on: 9999 → "9999", 12345 → "12.3k",
// 1234567 → "1.23M" (k, M, G, T, P, E).
std::string format_count(std::uint64_t count);

// Binary units, three significant digits: 512 → "512 B", 8000000 → "7.63 MiB".
std::string format_bytes(std::uint64_t bytes);

// "0x7ffc0010" (lower-case hex).
std::string format_address(std::uint64_t address);

// A fraction as a percentage: 0.5 → "50.0%", 0.0004 → "<0.1%", 0 → "0%".
std::string format_share(double fraction);

// 2^exponent with binary suffixes, exponent <= 64: 1, 2, ..., 512, 1K, ..., 512K, 1M, ..., 16E.
std::string power_of_two_label(unsigned exponent);

// "0-1" for bin 0, "(2^(b-1), 2^b]" with power_of_two_label for the others: "(512, 1K]".
std::string reuse_bin_label(std::size_t bin);

}  // namespace parperf::report
