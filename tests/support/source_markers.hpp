// The test programs mark the lines the tests look for with a comment SITE:<name> (/* */ in C, ! in
// Fortran), so that a test finds the line a construct or call is reported at by reading the source
// instead of hard-coding line numbers that an edit would move.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace parperf::test {

// Every marker of `source` and its line. A marker named twice, or a marker followed by anything but
// the end of the comment, is a test failure naming the file and lines.
std::map<std::string, std::int64_t> source_markers(const std::filesystem::path& source);

// The line that carries SITE:<name>; -1 (after a test failure) when none does.
std::int64_t marker_line(const std::filesystem::path& source, const std::string& name);

}  // namespace parperf::test
