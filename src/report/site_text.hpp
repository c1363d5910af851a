// How the readable trace (`parperf trace`) names a site: the kind in the listing's words
// (format/site_kinds.hpp), the site's own name, and where it is in the source. A describer that
// symbolizes code addresses can replace the default one, which only says what the profile holds.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "format/profile.hpp"

namespace parperf::report {

// How the listing says a site. Empty strings and line 0 mean unknown.
struct SiteText {
  std::string kind_name;   // "parallel region", "implicit barrier of loop"
  std::string name;        // shown in quotes; empty: not shown
  std::string file;        // "heat.c", or "heat+0x1a2b" for a code address not symbolized
  std::int64_t line1 = 0;  // where the site begins
  std::int64_t line2 = 0;  // where a construct ends; 0 when unknown or on line1
};

// Describes `site`. `construct` is the site of the construct that an implicit or join barrier
// belongs to (Site::parent), when the same profile defines it; null otherwise.
using SiteDescriber = std::function<SiteText(const format::Site& site, const format::Site* construct)>;

// The default describer: the kind in words, the site's own name, file and line; for a site found
// at a code address and not symbolized, "<module file name>+0x<address>" as its file. The name of
// an operation is left out when it only repeats the kind ("critical").
SiteText describe_site(const format::Site& site, const format::Site* construct);

// A site kind (format::SiteKind) in words: "user interval", "parallel region", "implicit barrier".
std::string_view site_kind_words(std::uint32_t kind);

}  // namespace parperf::report
