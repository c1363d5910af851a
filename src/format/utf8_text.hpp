// UTF-8 as the files parperf writes need it. Names, texts and command lines come from the measured
// program and a damaged file: any bytes. JSON, XML (SVG, HTML) and protobuf strings (Perfetto) must
// be UTF-8, and a reader rejects the whole file for one bad byte, so the writers keep the valid
// sequences and put U+FFFD in place of each byte that starts none.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace parperf::format {

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at text[i] (1 for ASCII), 0 when it is not one:
// overlong forms, surrogates, code points above U+10FFFF and the non-characters U+FFFE and U+FFFF
// (which XML rejects) are invalid too.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// `text` with each byte that starts no valid sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

}  // namespace parperf::format
