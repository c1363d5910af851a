#include "analysis/trace/profile_index.hpp"

#include <fmt/format.h>

#include <filesystem>

namespace parperf::analysis {

ProfileIndex::ProfileIndex(const TraceRun& traces) {
  for (const RankTrace& r : traces.ranks)
    if (r.profile) profiles_[r.rank] = r.profile;
}

ProfileIndex::ProfileIndex(const std::vector<format::Profile>& run) {
  for (const format::Profile& p : run) profiles_[p.process.rank] = &p;
}

const format::Profile* ProfileIndex::of(std::int64_t rank) const {
  const auto it = profiles_.find(rank);
  return it == profiles_.end() ? nullptr : it->second;
}

const format::Site* ProfileIndex::site(std::int64_t rank, std::uint32_t site) const {
  if (const format::Profile* p = of(rank))
    for (const format::Site& s : p->sites)
      if (s.id == site) return &s;
  return nullptr;
}

std::string ProfileIndex::site_name(std::int64_t rank, std::uint32_t id) const {
  const format::Site* s = site(rank, id);
  return s ? s->name : fmt::format("site {}", id);
}

std::string ProfileIndex::site_location(std::int64_t rank, std::uint32_t id, const SiteTable& sites) const {
  const format::Site* s = site(rank, id);
  if (!s) return site_name(rank, id);
  const SiteLocation at = sites.location(rank, *s);
  if (at.file.empty()) return s->name;
  const std::string file = std::filesystem::path(at.file).filename().string();
  return at.line > 0 ? fmt::format("{}:{}", file, at.line) : file;
}

}  // namespace parperf::analysis
