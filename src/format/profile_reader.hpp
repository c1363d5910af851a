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

// The largest section a profile may hold. The runtime's largest sections are its threads' interval
// trees: with the default PARPERF_MAX_NODES (100 000 intervals a thread) one takes about 25 MB, so
// 1 GiB is 40 times that; a larger claim is damage (or a planted sparse file), refused before
// anything is read or checksummed.
inline constexpr std::uint64_t kMaxProfileSectionBytes = std::uint64_t{1} << 30;

// Decodes a whole file held in memory. The message of a FormatError names the problem, not a file.
Profile decode_profile(std::span<const std::uint8_t> bytes);

// Reads and decodes `path`, its sections' lengths and checksums checked on disk before the file is
// read into memory (section_scan.hpp); the message of a FormatError starts with the file's name:
// "profile.0.ppf: truncated: section 4 (thread) declares 812 bytes, 100 remain".
Profile read_profile_file(const std::filesystem::path& path);

}  // namespace parperf::format
