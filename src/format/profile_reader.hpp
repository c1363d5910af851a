// Decodes profile files. Every length and count is checked against the bytes that remain before
// it is trusted; any problem throws FormatError with a one-line description.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

#include "format/profile.hpp"

namespace parperf::format {

class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decodes a whole file held in memory. The message of a FormatError names the problem, not a file.
Profile decode_profile(std::span<const std::uint8_t> bytes);

// Reads and decodes `path`; the message of a FormatError starts with the file's name:
// "profile.0.ppf: truncated: section 4 (thread) declares 812 bytes, 100 remain".
Profile read_profile_file(const std::filesystem::path& path);

}  // namespace parperf::format
