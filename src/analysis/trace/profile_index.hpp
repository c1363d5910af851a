// The profiles of a run's ranks by rank, for naming and placing the sites that trace events and the
// calls extracted from them refer to (ids private to each rank's profile).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/site_table.hpp"
#include "analysis/trace/trace_run.hpp"
#include "format/profile.hpp"

namespace parperf::analysis {

class ProfileIndex {
 public:
  explicit ProfileIndex(const TraceRun& traces);                   // the traced ranks' profiles
  explicit ProfileIndex(const std::vector<format::Profile>& run);  // every profile of a run

  // Null when the rank left no profile.
  const format::Profile* of(std::int64_t rank) const;
  const format::Site* site(std::int64_t rank, std::uint32_t site) const;

  // "MPI_Recv"; "site 12" when the profile does not have it.
  std::string site_name(std::int64_t rank, std::uint32_t site) const;
  // "file.c:42" (the file's name; `sites`: the run's symbolized code addresses, site_resolution.hpp),
  // or the site's name when there is no source position for it.
  std::string site_location(std::int64_t rank, std::uint32_t site, const SiteTable& sites) const;

 private:
  std::unordered_map<std::int64_t, const format::Profile*> profiles_;
};

}  // namespace parperf::analysis
