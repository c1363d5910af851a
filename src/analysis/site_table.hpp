// Where the sites of a run are in the source, once the analysis has symbolized the code addresses
// the collectors found them at (OpenMP constructs, instrumented functions). The profiles keep what their
// files hold; the table holds what symbolization adds beside them, so that analysing a run never changes it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "format/profile.hpp"

namespace parperf::analysis {

struct SiteLocation {
  std::string file;
  std::int64_t line = 0;
  std::int64_t end_line = 0;  // where the construct ended, when a collector saw it (0 if unknown)
  std::string function;       // the enclosing function, for sites found at a code address
  // The site's name when symbolization gives it (an instrumented function's site is the function:
  // its demangled name); empty to keep the name the profile holds.
  std::string name;
  // The name to show for `site`: the symbolized one when there is one.
  const std::string& name_of(const format::Site& site) const { return name.empty() ? site.name : name; }
};

// Site ids are private to one process, so the table is keyed by (rank, site id): a run has at most
// one profile per rank.
class SiteTable {
 public:
  void add(std::int64_t rank, std::uint32_t site, SiteLocation location) {
    resolved_[rank][site] = std::move(location);
  }

  // The location of `site` of the profile of `rank`: the symbolized one, else what the file says.
  SiteLocation location(std::int64_t rank, const format::Site& site) const {
    if (auto by_rank = resolved_.find(rank); by_rank != resolved_.end()) {
      if (auto it = by_rank->second.find(site.id); it != by_rank->second.end()) return it->second;
    }
    return SiteLocation{site.file, site.line, 0, {}, {}};
  }

  // Problems met while symbolizing (a module that cannot be read), one per module.
  std::vector<std::string> warnings;

 private:
  std::map<std::int64_t, std::unordered_map<std::uint32_t, SiteLocation>> resolved_;
};

}  // namespace parperf::analysis
